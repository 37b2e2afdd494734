// Get-methods (api-v2.md §2.6, §3.3): POST only. The account is read at the latest masterchain block (or
// `seqno`) and the method run on it (get-method.ts); a non-zero exit code is still a successful answer.
import { z } from 'zod';
import type { LiteClient } from 'ton-lite-client';
import type { TvmPool } from '../../../tvm/pool';
import type { Address, TupleItem } from '@ton/core';
import { accountAt } from '../../../chain/account-state';
import { methodIdOf, runGetMethodOn } from '../../../chain/get-method';
import { blockIdJson } from '../block-json';
import { defineMethod } from '../method';
import { transactionId } from '../../../chain/tx-json';
import { address, int32 } from '../params';
import { legacyEntry, newExpansion, parseStack, typedEntry } from '../stack';

const METHOD_ID = /^(-?\d+|0x[0-9a-f]+)$/i;

const params = z.object({
  address: address(),
  method: z
    .union([z.string(), z.number(), z.bigint()])
    .transform((v, ctx): bigint => {
      // A number, or a string that reads as one, is a method id (as in the C++ service); else a name.
      if (typeof v === 'bigint') return v;
      if (typeof v === 'number') {
        if (Number.isSafeInteger(v)) return BigInt(v);
      } else {
        const s = v.trim();
        if (METHOD_ID.test(s)) return BigInt(s);
        if (s.length > 0) return methodIdOf(s);
      }
      ctx.addIssue({ code: 'custom', message: `expected a get-method name or id, got ${JSON.stringify(v)}` });
      return z.NEVER;
    })
    .meta({ description: 'get-method name, or its numeric id' }),
  stack: z.array(z.unknown()).meta({ description: 'arguments, first pushed first' }),
  seqno: int32('a masterchain seqno > 0', 1n).optional(),
});

async function run(client: LiteClient, tvm: TvmPool, p: { address: { address: Address }; method: bigint; stack: unknown[]; seqno?: number }, typed: boolean) {
  const input = parseStack(p.stack, typed);
  const acc = await accountAt(client, p.address.address, p.seqno);
  return { acc, res: await runGetMethodOn(client, tvm, acc, p.method, input) };
}

/** The result stack in legacy entries, every cell's expansion counted against one budget. */
function legacyStack(stack: TupleItem[]): unknown[] {
  const budget = newExpansion();
  return stack.map((x) => legacyEntry(x, budget));
}

export const runGetMethod = defineMethod({
  name: 'runGetMethod',
  verbs: 'post',
  summary: 'Run a get-method; stack entries as [type, value]',
  params,
  async run(p, ctx) {
    const { acc, res } = await run(await ctx.lite(), await ctx.tvm(), p, false);
    return {
      '@type': 'smc.runResult',
      gas_used: res.gasUsed,
      stack: legacyStack(res.stack),
      exit_code: res.exitCode,
      block_id: blockIdJson(acc.block.id),
      last_transaction_id: transactionId(acc.lastTxLt, acc.lastTxHash),
    };
  },
});

export const runGetMethodStd = defineMethod({
  name: 'runGetMethodStd',
  verbs: 'post',
  summary: 'Run a get-method; stack entries as typed tonlib objects',
  params,
  async run(p, ctx) {
    const { res } = await run(await ctx.lite(), await ctx.tvm(), p, true);
    return { '@type': 'smc.runResult', gas_used: res.gasUsed, stack: res.stack.map((x) => typedEntry(x)), exit_code: res.exitCode };
  },
});
