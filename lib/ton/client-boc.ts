// Bags of cells from clients (sendBoc, estimateFee, stack cells, v3's BoC fields): checked against the
// limits table before and right after parsing, so an oversized or pathological BoC is refused with a
// message naming the limit instead of costing the parser, the emulator or a tree walk later on.
import { Cell } from '@ton/core';
import { z } from 'zod';
import { LIMITS } from '../limits';

/** Why a client's BoC is refused; the message is meant for the client. */
export class BocRejected extends Error {}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

// The cell count a serialized BoC declares in its header (before any cell is read): after the 4-byte
// magic, the generic format has a flags byte whose low 3 bits are the size of the count, the two
// older indexed formats a byte that is that size; then one offset-size byte, then the count.
const GENERIC = 0xb5ee9c72;
const INDEXED = [0x68ff65f3, 0xacc3a728];

function declaredCells(bytes: Buffer): number | undefined {
  if (bytes.length < 6) return undefined;
  const magic = bytes.readUInt32BE(0);
  const size = magic === GENERIC ? bytes[4]! & 7 : INDEXED.includes(magic) ? bytes[4]! : 0;
  if (size < 1 || size > 6 || bytes.length < 6 + size) return undefined; // the parser reports it
  return bytes.readUIntBE(6, size);
}

/** The one root cell of a base64 BoC from a client, within LIMITS.bocBytes, bocCells and `maxDepth`. */
export function parseClientBoc(base64: string, what: string, maxDepth: number = LIMITS.cellDepth): Cell {
  const text = base64.trim();
  if (!BASE64.test(text)) throw new BocRejected(`${what} is not base64`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > LIMITS.bocBytes) throw new BocRejected(`${what} has ${bytes.length} bytes; at most ${LIMITS.bocBytes} are allowed`);
  const cells = declaredCells(bytes);
  if (cells !== undefined && cells > LIMITS.bocCells) throw new BocRejected(`${what} has ${cells} cells; at most ${LIMITS.bocCells} are allowed`);
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(bytes);
  } catch (e) {
    throw new BocRejected(`${what} is not a bag of cells (${e instanceof Error ? e.message : String(e)})`);
  }
  if (roots.length !== 1) throw new BocRejected(`${what} has ${roots.length} root cells; expected one`);
  const depth = roots[0]!.depth();
  if (depth > maxDepth) throw new BocRejected(`${what} is ${depth} cells deep; at most ${maxDepth} are allowed`);
  return roots[0]!;
}

/** A hex BoC: its magic (generic or either indexed format) first, an optional 0x, whole bytes. */
const HEX_BOC = /^(?:0x)?((?:b5ee9c72|68ff65f3|acc3a728)(?:[0-9a-f]{2})*)$/i;

/** parseClientBoc for a BoC pasted by a person: base64 (standard or url-safe), or hex as explorers show it. */
export function parsePastedBoc(text: string, what: string, maxDepth?: number): Cell {
  const hex = HEX_BOC.exec(text.trim());
  return parseClientBoc(hex ? Buffer.from(hex[1]!, 'hex').toString('base64') : text, what, maxDepth);
}

/** A zod field for a client's base64 BoC, parsed by parseClientBoc; with `emptyIsNone`, "" means none (null). */
export function bocParam<E extends boolean = false>(what: string, opts: { maxDepth?: number; emptyIsNone?: E } = {}) {
  type Out = E extends true ? Cell | null : Cell;
  return z
    .string()
    .transform((v, ctx): Out => {
      if (opts.emptyIsNone && v.trim() === '') return null as Out;
      try {
        return parseClientBoc(v, what, opts.maxDepth) as Out;
      } catch (e) {
        if (!(e instanceof BocRejected)) throw e;
        ctx.addIssue({ code: 'custom', message: `invalid ${what}: ${e.message}` });
        return z.NEVER;
      }
    })
    .meta({ description: `${what}: base64 bag of cells` });
}
