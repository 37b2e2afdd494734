// Who sent a request, as rate limits and logs need it. Only the HTTP server sees the socket: it writes the
// peer's address (or, with TRUST_PROXY, the address the proxy in front reports) into CLIENT_IP_HEADER,
// replacing whatever a client sent under that name, and route handlers read it back here.

export const CLIENT_IP_HEADER = 'x-atlas-client-ip';

/** The client's address as the server recorded it; 'unknown' where no Atlas server fronted the request (next dev, tests). */
export function clientIp(req: Request): string {
  return req.headers.get(CLIENT_IP_HEADER) || 'unknown';
}
