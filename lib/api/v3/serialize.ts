// Render once, serve many: objects of an answer that never change (a finalized transaction's messages and
// description, a finished trace kept by trace-cache.ts) are serialized the first time an answer carries
// them, and later answers splice those bytes in instead of serializing the objects again. Serialization is
// most of the CPU of a long list answer, and the same transactions and traces are asked for again and
// again (wallets poll their account, explorers refresh the newest pages).
//
// How: a kept object gets a non-enumerable toJSON. While goJson serializes, it answers a placeholder
// string naming a slot, and goJson's one pass over the output (the pass that writes Go's escapes) puts the
// object's bytes in the slot's place. Outside goJson (any other JSON.stringify) it answers a plain copy, so
// the bytes never depend on who serializes. The placeholder carries a random token chosen per process: a
// string an attacker stored on the chain cannot be taken for one.
import { randomBytes } from 'node:crypto';

const TOKEN = randomBytes(12).toString('base64url');
const PLACEHOLDER = `\u0000${TOKEN}`;

// Go's HTML-safe escapes (only strings can contain these characters), and the placeholders as
// JSON.stringify writes them (`"\u0000<token><slot>"`).
const PASS = new RegExp(`[<>&\\u2028\\u2029]|"\\\\u0000${TOKEN}(\\d+)"`, 'g');
const goEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The bytes of each kept object, once serialized. */
const bytesOf = new WeakMap<object, string>();

/** The kept objects' bytes the serialization running now has met (goJson is synchronous, so one at a time). */
let slots: string[] | null = null;

function keptToJson(this: object): unknown {
  // A plain copy: the same enumerable keys, without this method.
  if (!slots) return { ...this };
  let json = bytesOf.get(this);
  if (json === undefined) {
    json = goJson({ ...this });
    bytesOf.set(this, json);
  }
  slots.push(json);
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

/** JSON.stringify with Go's HTML-safe escaping, kept objects spliced in from their first serialization. */
export function goJson(value: unknown): string {
  const outer = slots;
  const mine: string[] = [];
  slots = mine;
  try {
    return JSON.stringify(value).replace(PASS, (match: string, slot: string | undefined) => (slot === undefined ? goEscape(match) : mine[Number(slot)]!));
  } finally {
    slots = outer;
  }
}
