// The browser-facing security headers, in one place: proxy.ts sends the per-request page policy,
// next.config.ts the static headers every answer carries (pages, API, static files).
//
// Pages render text that strangers wrote on chain. React escapes it, and ChainText marks what would hide
// or reorder it; the policy below is the second wall: a script runs only when this server sent it with
// this request's nonce, so markup that ever slipped through escaping still could not execute.

/** The request header that hands the nonce from proxy.ts to the root layout. */
export const NONCE_HEADER = 'x-nonce';

/** 16 random bytes, base64: unguessable and new for every page answer. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The page policy. Scripts: only those carrying the nonce (Next puts it on its own scripts when it finds
 * it in the request's Content-Security-Policy header), and what they load ('strict-dynamic'): no inline
 * scripts, no event-handler attributes, no `javascript:` URLs. Styles: stylesheets from this origin or
 * with the nonce; style *attributes* stay allowed (`style-src-attr`), because React renders `style`
 * props as attributes and an attribute can neither run script nor load anything the other directives
 * forbid. `next dev` needs eval for its overlay and fast refresh; production never gets it.
 */
export function pageContentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // No remote images are shown (QR codes are inline SVG); data:/blob: for what the page builds itself.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** API answers are JSON or bytes, never documents: nothing in them may run, load or be framed. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Headers on every answer, whatever route made it. */
export const STATIC_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  // A JSON error body that echoes input must never be sniffed into HTML or a script.
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // Links out (docs, a jetton's website) must not tell other sites which address or transaction was open.
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  // For browsers older than frame-ancestors: no framing, so no clickjacking.
  { key: 'X-Frame-Options', value: 'DENY' },
  // The explorer uses none of these powers; a script that got in could not ask for them either.
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];
