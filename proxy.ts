// Next's proxy (the request hook that was `middleware` before Next 16): every page answer gets a fresh
// script nonce and the Content-Security-Policy built on it (lib/http/security-headers.ts). The policy is
// also set on the request: Next reads it there and puts the nonce on the scripts it renders.
import { NextResponse, type NextRequest } from 'next/server';
import { NONCE_HEADER, newNonce, pageContentSecurityPolicy } from './lib/http/security-headers';

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set(NONCE_HEADER, nonce);
  headers.set('Content-Security-Policy', policy);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('Content-Security-Policy', policy);
  return res;
}

export const config = {
  // Pages only. The API has a fixed policy (next.config.ts) and its bodies must not pass through here
  // (the proxy would buffer them); built assets and the favicon are files, not documents.
  matcher: [{ source: '/((?!api/|api$|_next/static|_next/image|favicon\\.svg).*)' }],
};
