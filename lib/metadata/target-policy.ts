// Which hosts the off-chain metadata fetcher may connect to. Metadata URIs are written by strangers, so a
// URI must never make Atlas reach into the network it runs in (SSRF): the host is resolved first and every
// address it resolves to must be public; the connection then goes to the address that was checked (the
// fetcher pins it), so a DNS answer that changes between the check and the connect cannot slip through.
import dns from 'node:dns/promises';
import net from 'node:net';

/** Address ranges that are never a public web server (IANA special-purpose registries, v4 and v6). */
function privateRanges(): net.BlockList {
  const b = new net.BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8], // "this" network
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local (cloud metadata services live here)
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['192.88.99.0', 24], // 6to4 relay anycast
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation
    ['203.0.113.0', 24], // documentation
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ];
  for (const [a, p] of v4) b.addSubnet(a, p, 'ipv4');
  const v6: [string, number][] = [
    ['::', 128], // unspecified
    ['::1', 128], // loopback
    ['64:ff9b:1::', 48], // local-use NAT64
    ['100::', 64], // discard
    ['2001::', 23], // IETF protocol assignments
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique local
    ['fe80::', 10], // link-local
    ['ff00::', 8], // multicast
  ];
  for (const [a, p] of v6) b.addSubnet(a, p, 'ipv6');
  return b;
}

const PRIVATE = privateRanges();

/** The IPv4 address an IPv6 address embeds (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedV4(ip: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return m[1];
  // The same in hex words (::ffff:7f00:1), as some resolvers print it.
  const h = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!h) return undefined;
  const hi = parseInt(h[1]!, 16);
  const lo = parseInt(h[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True when `ip` (a literal v4 or v6 address) is public: not private, loopback, link-local, reserved... */
export function isPublicAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedV4(ip);
    if (v4) return isPublicAddress(v4);
    return !PRIVATE.check(ip, 'ipv6');
  }
  return !PRIVATE.check(ip, 'ipv4');
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/** Decides where a host may be reached; the fetcher connects only to what this returns. */
export interface TargetPolicy {
  /** The address to connect to for `host`, or throws TargetRefused. */
  resolve(host: string): Promise<ResolvedTarget>;
}

export class TargetRefused extends Error {}

/**
 * The production policy: a literal address must be public; a name is resolved and every address it
 * resolves to must be public (a name with one private address among public ones is refused too, since
 * which of them a retry would use is not ours to choose).
 */
export function publicTargets(lookup: (host: string) => Promise<{ address: string; family: number }[]> = (h) => dns.lookup(h, { all: true })): TargetPolicy {
  return {
    async resolve(host) {
      const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
      const literal = net.isIP(bare);
      if (literal) {
        if (!isPublicAddress(bare)) throw new TargetRefused(`${bare} is not a public address`);
        return { address: bare, family: literal as 4 | 6 };
      }
      let found: { address: string; family: number }[];
      try {
        found = await lookup(bare);
      } catch (err) {
        throw new TargetRefused(`${bare} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      if (!found.length) throw new TargetRefused(`${bare} does not resolve`);
      const bad = found.find((a) => !isPublicAddress(a.address));
      if (bad) throw new TargetRefused(`${bare} resolves to ${bad.address}, which is not a public address`);
      return { address: found[0]!.address, family: found[0]!.family === 6 ? 6 : 4 };
    },
  };
}
