import { describe, expect, it } from 'vitest';
import { newNonce, pageContentSecurityPolicy } from './security-headers';

describe('page content security policy', () => {
  it('allows scripts only by nonce, never inline or eval in production', () => {
    const csp = pageContentSecurityPolicy('abc123');
    const scripts = csp.split('; ').find((d) => d.startsWith('script-src '));
    expect(scripts).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(pageContentSecurityPolicy('abc123', true)).toContain("'nonce-abc123' 'strict-dynamic' 'unsafe-eval'");
  });

  it('makes a new 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(Buffer.from(n, 'base64')).toHaveLength(16);
  });
});
