// GET and POST /decode (api-v3.md §2.5): opcodes to constructor names and bodies to their fields, with
// the one table of bodies Atlas knows (lib/actions/bodies.ts). Nothing is read from the index.
import { z } from 'zod';
import { BodyNotDecoded, decodeBodyCell, opcodeName } from '../../../actions/bodies';
import { LIMITS } from '../../../limits';
import { BocRejected, parseClientBoc } from '../../../ton/client-boc';
import { unprocessable } from '../errors';
import { DecodeResponse } from '../models/messages';
import { p, unspace } from '../params';
import { definePostRoute, defineRoute } from '../route';

const MAX_ITEMS = LIMITS.listValues;
const UINT32 = 2n ** 32n;

/** An opcode string: `0x` + hex; else hex first, then unsigned decimal, then signed decimal (32-bit). */
function parseDecodeOpcode(raw: string): number | undefined {
  const s = raw.trim();
  const hex = (h: string) => (/^[0-9a-fA-F]{1,64}$/.test(h) && BigInt(`0x${h}`) < UINT32 ? Number(BigInt(`0x${h}`)) : undefined);
  if (/^0[xX]/.test(s)) return hex(s.slice(2));
  const h = hex(s);
  if (h !== undefined) return h;
  if (/^\d{1,20}$/.test(s) && BigInt(s) < UINT32) return Number(s);
  if (/^[+-]\d{1,20}$/.test(s)) {
    const n = BigInt(s);
    if (n >= -(UINT32 / 2n) && n < UINT32 / 2n) return Number(n);
  }
  return undefined;
}

const SHOWN = 80;
const shown = (s: string) => (s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s);

/** A body from the client: a base64 BoC (`te6…`) or a hex BoC, within the client BoC limits. */
function bodyCell(raw: string) {
  const s = unspace(raw);
  if (s.startsWith('te6')) return parseClientBoc(s, 'body');
  if (/^([0-9a-fA-F]{2})+$/.test(s)) {
    if (s.length / 2 > LIMITS.bocBytes) throw new BocRejected(`body has ${s.length / 2} bytes; at most ${LIMITS.bocBytes} are allowed`);
    return parseClientBoc(Buffer.from(s, 'hex').toString('base64'), 'body');
  }
  throw new BocRejected('body is neither a base64 BoC (te6…) nor a hex BoC');
}

function decodeOne(raw: string): Record<string, unknown> {
  try {
    return decodeBodyCell(bodyCell(raw));
  } catch (e) {
    if (e instanceof BocRejected || e instanceof BodyNotDecoded) return { error: e.message };
    throw e;
  }
}

/**
 * The bodies in order, while their BoCs together stay within LIMITS.decodeBytes: parsing costs about as
 * much per byte whatever the split, so one request's work is bounded by bytes (a 1 MiB JSON body could
 * otherwise hold ~100k cells). Bodies past the budget answer an error without being parsed.
 */
function decodeAll(bodies: readonly string[]): Record<string, unknown>[] {
  let bytes = 0;
  return bodies.map((raw) => {
    const s = raw.trim();
    bytes += s.startsWith('te6') ? Math.floor((s.length * 3) / 4) : Math.floor(s.length / 2);
    if (bytes > LIMITS.decodeBytes) return { error: `the bodies of one request may hold ${LIMITS.decodeBytes} bytes together; decode the rest in another request` };
    return decodeOne(raw);
  });
}

function decode(opcodes: readonly string[] = [], bodies: readonly string[] = []): z.output<typeof DecodeResponse> {
  if (opcodes.length > MAX_ITEMS) throw unprocessable(`opcodes list exceeds maximum length of ${MAX_ITEMS}`);
  if (bodies.length > MAX_ITEMS) throw unprocessable(`bodies list exceeds maximum length of ${MAX_ITEMS}`);
  const names = opcodes.map((raw, i) => {
    const op = parseDecodeOpcode(raw);
    if (op === undefined) throw unprocessable(`invalid opcode format at index ${i}: ${shown(raw)}`);
    return opcodeName(op) ?? 'unknown';
  });
  return { opcodes: names, bodies: decodeAll(bodies) };
}

const ERRORS = { 422: `opcodes or bodies list exceeds maximum length of ${MAX_ITEMS} · invalid opcode format at index <i>` } as const;

export const decodeGet = defineRoute({
  path: 'decode',
  tag: 'blockchain',
  summary: 'Decode opcodes and message bodies',
  description:
    'Answers positionally: each opcode as its constructor name (or "unknown"), each body as {"@type": constructor, …fields} ' +
    '(nested bodies decoded), {"@type":"empty_cell"}, or {"error": why} when it is not a BoC or not a body Atlas knows.',
  query: z.object({
    opcodes: p.stringsUncapped(`Opcodes (at most ${MAX_ITEMS}): 0x-hex, hex (tried first), unsigned or signed decimal.`),
    bodies: p.stringsUncapped(`Bodies (at most ${MAX_ITEMS}): base64 BoC (te6…) or hex BoC.`),
  }),
  response: DecodeResponse,
  errors: ERRORS,
  async run(q) {
    return decode(q.opcodes, q.bodies);
  },
});

export const decodePost = definePostRoute({
  path: 'decode',
  summary: 'Decode opcodes and message bodies (JSON body {opcodes, bodies}, same answer as GET /decode)',
  body: z.object({
    opcodes: z.array(z.string()).optional().meta({ description: `at most ${MAX_ITEMS} opcodes` }),
    bodies: z.array(z.string()).optional().meta({ description: `at most ${MAX_ITEMS} bodies: base64 or hex BoC` }),
  }),
  response: DecodeResponse,
  errors: ERRORS,
  async run(b) {
    return decode(b.opcodes, b.bodies);
  },
});
