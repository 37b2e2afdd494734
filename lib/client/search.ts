// What a search box input can mean, before asking the APIs: every reading the text allows, in the
// order we try them. Resolution (does that address/hash/block exist?) happens in app/search.

import { decodeLoosely } from '../format/uri';

export type Candidate =
  | { kind: 'address'; value: string }
  | { kind: 'hash'; value: string }
  | { kind: 'block'; workchain: number; shard: string; seqno: number }
  | { kind: 'mcSeqno'; seqno: number }
  | { kind: 'domain'; value: string }
  | { kind: 'name'; value: string };

const RAW_ADDRESS = /^-?\d{1,3}:[0-9a-fA-F]{64}$/;
const FRIENDLY_ADDRESS = /^[A-Za-z0-9+/_-]{48}$/;
const HEX_HASH = /^(?:0x)?[0-9a-fA-F]{64}$/;
const B64_HASH = /^[A-Za-z0-9+/_-]{43}=?$/;
const BLOCK_ID = /^\(?\s*(-?\d{1,3})\s*[:,]\s*(?:0x)?([0-9a-fA-F]{1,16})\s*[:,]\s*(\d{1,10})\s*\)?$/;
const SEQNO = /^#?(\d{1,10})$/;
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.(ton|t\.me)$/i;

/** Pieces of a link worth reading: path segments (last first) and query values, `ton://transfer/<addr>` included. */
function linkParts(text: string): string[] | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol === 'ton:') {
    // ton://transfer/<address>?amount=…: the host is "transfer", the address the first path segment.
    const seg = url.pathname.split('/').filter(Boolean);
    return seg.length ? [decodeLoosely(seg[0]!)] : null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const segments = url.pathname.split('/').filter(Boolean).map(decodeLoosely).reverse();
  // tonscan's transaction links read /tx/<lt>:<hash>:<account> in some versions: split those too.
  const split = segments.flatMap((s) => (s.split(':').length === 3 && !BLOCK_ID.test(s) ? [s, ...s.split(':')] : [s]));
  const query = [...url.searchParams.values()];
  return [...split, ...query, url.hash.replace(/^#/, '')].filter(Boolean);
}

function readOne(text: string): Candidate[] {
  const t = text.trim();
  const out: Candidate[] = [];
  if (RAW_ADDRESS.test(t) || FRIENDLY_ADDRESS.test(t)) out.push({ kind: 'address', value: t });
  if (HEX_HASH.test(t)) out.push({ kind: 'hash', value: t.replace(/^0x/, '') });
  if (B64_HASH.test(t) || (t.length === 44 && /^[A-Za-z0-9+/_-]{43}=$/.test(t))) out.push({ kind: 'hash', value: t });
  const b = BLOCK_ID.exec(t);
  if (b && !RAW_ADDRESS.test(t)) out.push({ kind: 'block', workchain: Number(b[1]), shard: b[2]!.toUpperCase().padEnd(16, '0'), seqno: Number(b[3]) });
  const s = SEQNO.exec(t);
  if (s && Number(s[1]) <= 2 ** 31 - 1) out.push({ kind: 'mcSeqno', seqno: Number(s[1]) });
  if (DOMAIN.test(t)) out.push({ kind: 'domain', value: t.toLowerCase() });
  return out;
}

const NAME_MAX = 64;

export { nameMatches } from '../ton/name-words';

/** Every reading of the input; links are read by their parts. Duplicates are dropped. */
export function classify(input: string): Candidate[] {
  const text = input.trim();
  if (!text) return [];
  const parts = linkParts(text);
  let all = parts ? parts.flatMap(readOne) : readOne(text);
  // A `+` of base64 put into a URL without encoding arrives as a space.
  if (!all.length && input.includes(' ')) all = readOne(input.replace(/ /g, '+'));
  // Free text that is no identifier may be a jetton symbol or a jetton, NFT or collection name.
  if (!all.length && !parts && text.length <= NAME_MAX && /\p{L}/u.test(text) && !/\p{Cc}/u.test(text)) all = [{ kind: 'name', value: text }];
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = JSON.stringify(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
