// A get-method run live through /api/v2/runGetMethod (at the head the index reached), its answer as a
// TVM stack for the lib/ton readers: what route tests compare the index with.
import { expect } from 'vitest';
import { Cell, type TupleItem } from '@ton/core';
import type { TestChain } from './chain';

/** `stack`: v2's legacy entries, such as `['num', '7']` or `['tvm.Cell', base64 BoC]`. */
export async function liveGetMethod(chain: TestChain, address: string, method: string, stack: [string, string][] = []): Promise<TupleItem[]> {
  const r = await chain.callV2('post', 'runGetMethod', { address, method, stack });
  expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
  const result = r.body.result as { exit_code: number; stack: [string, unknown][] };
  expect(result.exit_code).toBe(0);
  return result.stack.map(([type, value]): TupleItem => {
    // Numbers come as hex strings, "-0x1" for -1 (BigInt() takes no signed hex).
    if (type === 'num') return { type: 'int', value: (value as string).startsWith('-') ? -BigInt((value as string).slice(1)) : BigInt(value as string) };
    if (type === 'cell' || type === 'slice') return { type: 'slice', cell: Cell.fromBase64((value as { bytes: string }).bytes) };
    return { type: 'null' };
  });
}
