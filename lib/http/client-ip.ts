// Who sent a request, as rate limits and logs need it. Only the HTTP server sees the socket: it writes the
// peer's address (or, with TRUST_PROXY, the address the proxy in front reports) into CLIENT_IP_HEADER,
// replacing whatever a client sent under that name, and route handlers read it back here.

export const CLIENT_IP_HEADER = 'x-atlas-client-ip';

/** The client's address as the server recorded it; 'unknown' where no Atlas server fronted the request (next dev, tests). */
export function clientIp(req: Request): string {
  return req.headers.get(CLIENT_IP_HEADER) || 'unknown';
}

/**
 * Set by the same server: `1` when the client, as TRUST_PROXY defines it, is on this machine's loopback
 * (lib/auth exempts it from the anonymous rate limit); anything a client sent under this name is replaced.
 */
export const CLIENT_LOOPBACK_HEADER = 'x-atlas-client-loopback';

/** 127.0.0.0/8 and ::1, also written IPv4-mapped (::ffff:127.0.0.1). */
export function isLoopbackAddress(ip: string): boolean {
  const v4 = ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Whether the server found the client on loopback; false where no Atlas server fronted the request. */
export const isLoopbackClient = (req: Request): boolean => req.headers.get(CLIENT_LOOPBACK_HEADER) === '1';
