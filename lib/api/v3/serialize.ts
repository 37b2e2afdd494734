// Render once, serve many: objects of an answer that never change (a finalized transaction's messages and
// description, a finished trace kept by trace-cache.ts) are serialized the first time an answer carries
// them, and later answers splice those bytes in instead of serializing the objects again. Serialization is
// most of the CPU of a long list answer, and the same transactions and traces are asked for again and
// again (wallets poll their account, explorers refresh the newest pages).
//
// How: a kept object gets a non-enumerable toJSON. While goJsonBytes serializes, it answers a placeholder
// string naming a slot, and goJsonBytes cuts the output at the placeholders and puts each object's bytes in
// its slot's place. Outside goJsonBytes (any other JSON.stringify) it answers a plain copy, so
// the bytes never depend on who serializes. The placeholder carries a random token chosen per process: a
// string an attacker stored on the chain cannot be taken for one.
import { randomBytes } from 'node:crypto';

const TOKEN = randomBytes(12).toString('base64url');
const PLACEHOLDER = `\u0000${TOKEN}`;

// Go's HTML-safe escapes (only strings can contain these characters), and a placeholder's start as
// JSON.stringify writes it (`"\u0000<token>`, then the slot's number and `"`).
const GO_ESCAPED_CHARS = ['<', '>', '&', '\u2028', '\u2029'];
const GO_ESCAPED = new RegExp(`[${GO_ESCAPED_CHARS.join('')}]`, 'g');
const goEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const PLACEHOLDER_JSON = `"\\u0000${TOKEN}`;

/**
 * `text` with Go's escapes. Most answers have none of these characters, and five `includes` scans cost a
 * fifth of one regular-expression pass (0.05 against 0.28 ms over the text of a 380 KB page of transactions).
 */
function goEscaped(text: string): string {
  for (const c of GO_ESCAPED_CHARS) if (text.includes(c)) return text.replace(GO_ESCAPED, goEscape);
  return text;
}

/** The UTF-8 bytes of each kept object, once serialized. */
const bytesOf = new WeakMap<object, Buffer<ArrayBuffer>>();

/** The kept objects' bytes the serialization running now has met (goJsonBytes is synchronous, so one at a time). */
let slots: Buffer<ArrayBuffer>[] | null = null;

/**
 * `b` in memory of its own: a small Buffer is a slice of Node's 8 KB buffer pool, and a kept object's bytes,
 * which live as long as its cache entry, would keep the whole slab alive with them.
 */
function ownMemory(b: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  if (b.byteOffset === 0 && b.length === b.buffer.byteLength) return b;
  const own = Buffer.allocUnsafeSlow(b.length);
  b.copy(own);
  return own;
}

function keptToJson(this: object): unknown {
  // A plain copy: the same enumerable keys, without this method.
  if (!slots) return { ...this };
  let bytes = bytesOf.get(this);
  if (bytes === undefined) {
    bytes = ownMemory(goJsonBytes({ ...this }));
    bytesOf.set(this, bytes);
  }
  slots.push(bytes);
  return `${PLACEHOLDER}${slots.length - 1}`;
}

/**
 * Marks `obj` as serialized once: frozen (its bytes are reused, so it must not change) and answered by its
 * first serialization from then on. Returns it.
 */
export function renderedOnce<T extends object>(obj: T): T {
  if (Object.isFrozen(obj)) return obj;
  Object.defineProperty(obj, 'toJSON', { value: keptToJson, enumerable: false });
  return Object.freeze(obj);
}

/**
 * JSON.stringify with Go's HTML-safe escaping, as UTF-8 bytes, kept objects spliced in from their first
 * serialization. Bytes, not a string: the kept bytes (most of a long answer) are copied once into the
 * answer, where splicing them into a string and encoding that string copied them twice more.
 */
export function goJsonBytes(value: unknown): Buffer<ArrayBuffer> {
  const outer = slots;
  const mine: Buffer<ArrayBuffer>[] = [];
  slots = mine;
  try {
    // The placeholders hold no character Go escapes: the text is escaped whole, then cut at them.
    const text = goEscaped(JSON.stringify(value));
    if (!mine.length) return Buffer.from(text);
    // The answer's pieces in order: text between kept objects, and the kept objects' bytes.
    const pieces: (string | Buffer<ArrayBuffer>)[] = [];
    let from = 0;
    for (let at = text.indexOf(PLACEHOLDER_JSON); at >= 0; at = text.indexOf(PLACEHOLDER_JSON, from)) {
      let end = at + PLACEHOLDER_JSON.length;
      let slot = 0;
      for (let d = text.charCodeAt(end) - 48; d >= 0 && d <= 9; d = text.charCodeAt(++end) - 48) slot = slot * 10 + d;
      pieces.push(text.slice(from, at), mine[slot]!);
      from = end + 1; // past the closing quote
    }
    pieces.push(text.slice(from));
    let size = 0;
    for (const p of pieces) size += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (const p of pieces) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
    return out;
  } finally {
    slots = outer;
  }
}

/** goJsonBytes as a string. */
export const goJson = (value: unknown): string => goJsonBytes(value).toString('utf8');
