// Text written on chain (comments, metadata names, domain names) is chosen by whoever sent it. Shown as
// it is, a right-to-left override turns `gnp.exe` into what reads as `exe.png`, and a zero-width space
// makes two different addresses look the same. Every renderer of such text goes through chainText(): the
// characters that change how other characters look (bidi controls, invisible characters, other control
// codes) become visible markers, and the text is cut to a length the page can hold.

/** The characters that reorder or hide text, by name (Unicode names shortened the way editors show them). */
const NAMED: Readonly<Record<number, { short: string; name: string }>> = {
  0x061c: { short: 'ALM', name: 'arabic letter mark' },
  0x200e: { short: 'LRM', name: 'left-to-right mark' },
  0x200f: { short: 'RLM', name: 'right-to-left mark' },
  0x202a: { short: 'LRE', name: 'left-to-right embedding' },
  0x202b: { short: 'RLE', name: 'right-to-left embedding' },
  0x202c: { short: 'PDF', name: 'pop directional formatting' },
  0x202d: { short: 'LRO', name: 'left-to-right override' },
  0x202e: { short: 'RLO', name: 'right-to-left override' },
  0x2066: { short: 'LRI', name: 'left-to-right isolate' },
  0x2067: { short: 'RLI', name: 'right-to-left isolate' },
  0x2068: { short: 'FSI', name: 'first strong isolate' },
  0x2069: { short: 'PDI', name: 'pop directional isolate' },
  0x00ad: { short: 'SHY', name: 'soft hyphen' },
  0x034f: { short: 'CGJ', name: 'combining grapheme joiner' },
  0x180e: { short: 'MVS', name: 'mongolian vowel separator' },
  0x200b: { short: 'ZWSP', name: 'zero-width space' },
  0x200c: { short: 'ZWNJ', name: 'zero-width non-joiner' },
  0x200d: { short: 'ZWJ', name: 'zero-width joiner' },
  0x2060: { short: 'WJ', name: 'word joiner' },
  0xfeff: { short: 'BOM', name: 'zero-width no-break space' },
};

/**
 * Everything that must not reach the page as itself: the named characters above, C0/C1 control codes
 * except tab and newline (which the comment box shows as layout), the other invisible formatting and
 * filler characters (U+2061–206F, U+FFF9–FFFB, Hangul fillers, tag characters) and lone surrogates.
 */
const HIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

export type ChainTextPart =
  | { kind: 'text'; text: string }
  /** `code` as `U+202E`; `short` is what the marker shows; `name` says what the character does. */
  | { kind: 'hidden'; code: string; short: string; name: string };

export interface ChainText {
  parts: ChainTextPart[];
  /** Characters (code points) left out after the cut. */
  omitted: number;
  /** The text looks like a TON address: a page must not let it pass for one. */
  looksLikeAddress: boolean;
  /** Bidi controls or invisible characters were found (a reason to warn, not only to mark). */
  suspicious: boolean;
}

/** Comments longer than this are cut; the rest is behind "show all" (a transfer comment can be ~1 KB per cell, chained). */
export const CHAIN_TEXT_MAX = 2_000;

const codeOf = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

function hiddenPart(ch: string): ChainTextPart {
  const cp = ch.codePointAt(0)!;
  const named = NAMED[cp];
  const code = codeOf(cp);
  if (named) return { kind: 'hidden', code, ...named };
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return { kind: 'hidden', code, short: code, name: 'control character' };
  if (cp >= 0xd800 && cp <= 0xdfff) return { kind: 'hidden', code, short: code, name: 'lone surrogate' };
  return { kind: 'hidden', code, short: code, name: 'invisible formatting character' };
}

// Friendly (48 base64/url-safe characters starting with a tag letter E/U/k/0) or raw (`wc:64 hex`).
const FRIENDLY_ADDRESS = /^[EUk0][A-Za-z0-9_+/-]{47}$/;
const RAW_ADDRESS = /^-?\d{1,3}:[0-9a-fA-F]{64}$/;

/** Whether `text` holds something that, once hidden characters are dropped, reads as a TON address. */
export function looksLikeAddress(text: string): boolean {
  return text
    .replace(HIDDEN, '')
    .split(/\s+/)
    .some((word) => FRIENDLY_ADDRESS.test(word) || RAW_ADDRESS.test(word));
}

/** Splits chain text into literal runs and visible markers for hidden characters, cut at `max` code points. */
export function chainText(text: string, max = CHAIN_TEXT_MAX): ChainText {
  const points = Array.from(text);
  const kept = points.length > max ? points.slice(0, max).join('') : text;
  const parts: ChainTextPart[] = [];
  let last = 0;
  for (const m of kept.matchAll(HIDDEN)) {
    if (m.index > last) parts.push({ kind: 'text', text: kept.slice(last, m.index) });
    parts.push(hiddenPart(m[0]));
    last = m.index + m[0].length;
  }
  if (last < kept.length) parts.push({ kind: 'text', text: kept.slice(last) });
  // Both flags read the whole text: what hides past the cut still deserves the warning.
  return { parts, omitted: Math.max(0, points.length - max), looksLikeAddress: looksLikeAddress(text), suspicious: text.search(HIDDEN) !== -1 };
}

/** The text as one string with each hidden character written as `[RLO]`-style markers (titles, copy text). */
export function chainTextPlain(text: string, max = CHAIN_TEXT_MAX): string {
  const { parts, omitted } = chainText(text, max);
  const body = parts.map((p) => (p.kind === 'text' ? p.text : `[${p.short}]`)).join('');
  return omitted ? `${body}…` : body;
}

/**
 * A link target taken from chain data (metadata `url`, `image`, a DNS site), or undefined: only absolute
 * http(s) URLs, so `javascript:`, `data:` and the like never become an href.
 */
export function safeExternalUrl(value: string): string | undefined {
  if (value.search(HIDDEN) !== -1) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}
