// Sending (api-v2.md §2.7, §3.7, §3.8): external messages go to the liteserver as they are; estimateFee
// emulates one (fees.ts). POST only.
import { Cell, loadMessage, type StateInit } from '@ton/core';
import { z } from 'zod';
import { normalizedHash } from '../../../indexer/parse-transaction';
import { invalidRequest, V2Error } from '../errors';
import { estimateFees } from '../fees';
import { defineMethod } from '../method';
import { address, bool } from '../params';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** A base64 BoC with one root cell; `optional` lets "" mean "none". */
function boc(what: string) {
  return z
    .string()
    .transform((v, ctx): Cell | null => {
      const t = v.trim();
      if (t === '') return null;
      try {
        if (!BASE64.test(t)) throw new Error('not base64');
        const roots = Cell.fromBoc(Buffer.from(t, 'base64'));
        if (roots.length !== 1) throw new Error(`${roots.length} root cells`);
        return roots[0]!;
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `invalid ${what}: not a base64 bag of cells with one root (${e instanceof Error ? e.message : String(e)})` });
        return z.NEVER;
      }
    })
    .meta({ description: `${what}: base64 bag of cells` });
}

const sendParams = z.object({ boc: boc('boc') });

function required(cell: Cell | null, name: string): Cell {
  if (!cell) throw invalidRequest(`failed to validate request: ${name} is empty`);
  return cell;
}

async function send(cell: Cell, lite: () => Promise<{ sendMessage(src: Buffer): Promise<unknown> }>) {
  await (await lite()).sendMessage(cell.toBoc());
}

/** hash and hash_norm of an external inbound message (the BoC's root); 422 for anything else. */
function messageHashes(cell: Cell) {
  let norm: Buffer | null = null;
  try {
    norm = normalizedHash(loadMessage(cell.beginParse()));
  } catch {
    // not a message at all
  }
  if (!norm) throw invalidRequest('failed to validate request: boc is not an external inbound message');
  return { '@type': 'raw.extMessageInfo', hash: cell.hash().toString('base64'), hash_norm: norm.toString('base64') };
}

export const sendBoc = defineMethod({
  name: 'sendBoc',
  verbs: 'post',
  summary: 'Send an external inbound message (base64 BoC)',
  params: sendParams,
  async run(p, ctx) {
    await send(required(p.boc, 'boc'), ctx.lite);
    return { '@type': 'ok' };
  },
});

export const sendBocReturnHash = defineMethod({
  name: 'sendBocReturnHash',
  verbs: 'post',
  summary: 'Send an external inbound message; answer its hash and normalized hash',
  params: sendParams,
  async run(p, ctx) {
    const cell = required(p.boc, 'boc');
    const hashes = messageHashes(cell);
    await send(cell, ctx.lite);
    return hashes;
  },
});

export const sendBocReturnHashNoError = defineMethod({
  name: 'sendBocReturnHashNoError',
  verbs: 'post',
  summary: 'As sendBocReturnHash, with any failure to send reported as 400',
  params: sendParams,
  async run(p, ctx) {
    const cell = required(p.boc, 'boc');
    const hashes = messageHashes(cell);
    try {
      await send(cell, ctx.lite);
    } catch (e) {
      throw new V2Error(400, e instanceof Error ? e.message : String(e));
    }
    return hashes;
  },
});

export const estimateFee = defineMethod({
  name: 'estimateFee',
  verbs: 'post',
  summary: 'Fees of an external message to an account, by emulating it on the current state and config',
  params: z.object({
    address: address(),
    body: boc('body'),
    init_code: boc('init_code').optional(),
    init_data: boc('init_data').optional(),
    ignore_chksig: bool().default(true),
  }),
  async run(p, ctx) {
    const body = required(p.body, 'body');
    const init: StateInit | null = p.init_code || p.init_data ? { code: p.init_code ?? undefined, data: p.init_data ?? undefined } : null;
    return estimateFees(await ctx.lite(), p.address.address, body, init, p.ignore_chksig);
  },
});
