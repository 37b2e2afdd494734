// Running get-methods as tonlib does for toncenter: on the account's code and data read from the lite
// server at a masterchain block, in the TVM here (so that the gas used is known: the lite server's
// runSmcMethod answer carries none), with that block's configuration and time. Libraries the code
// reaches are fetched from the lite server as the VM asks for them.
import { Address, Cell, crc16, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { TtlLru } from '../lite/cache';
import { accountIn, type AccountAt, type McBlock } from './account-state';
import { ChainError } from './errors';
import type { TvmPool } from '../tvm/pool';
import { configAt, emptyLibraries, fetchLibrary, librariesCell } from './tvm';

/** What tonlib reports for an account without code (uninitialized, frozen or nonexistent): a failed run. */
export const NO_CODE_EXIT_CODE = -13;
/** tonlib's gas limit for get-methods. */
const GAS_LIMIT = 1_000_000n;
/** Libraries fetched for one run at most (each missing one costs a rerun). */
const MAX_LIBRARY_FETCHES = 8;

/** The id of a get-method name: crc16(name) | 0x10000, as FunC/Tolk and tonlib compute it. */
export function methodIdOf(name: string): bigint {
  return BigInt(crc16(Buffer.from(name, 'utf8')).readUInt16BE(0) | 0x10000);
}

export interface GetMethodResult {
  exitCode: number;
  gasUsed: number;
  stack: TupleItem[];
}

/** A run as the executor reports it; the stack stays a BoC so every caller parses its own copy. */
interface RunOutput {
  exitCode: number;
  gasUsed: number;
  stackBoc: string;
}

// Finished runs by everything that decides their outcome: the masterchain block (config, time, and so
// the account's state in it), the account state itself, the method and its arguments (the random seed
// is fixed). So a run's answer never changes and may be reused: each costs ~5-15 ms of TVM, most of it
// the emulator reading the block's whole configuration (~110 KB) again. Bounded in entries and bytes.
const runs = new TtlLru<string, RunOutput>({ ttlMs: 60_000, maxEntries: 2000, maxBytes: 32 << 20, sizeOf: (r) => 128 + r.stackBoc.length });

function runKey(acc: AccountAt, methodId: bigint, stack: TupleItem[]): string {
  return [
    acc.block.id.rootHash.toString('hex'),
    acc.address.toRawString(),
    acc.lastTxLt,
    acc.lastTxHash.toString('hex'),
    acc.code!.hash().toString('hex'),
    acc.data!.hash().toString('hex'),
    methodId,
    stack.length ? serializeTuple(stack).hash().toString('hex') : '',
  ].join(':');
}

/** Forgets finished runs (benchmarks measure the uncached cost with it). */
export function clearGetMethodRuns(): void {
  runs.clear();
}

/** Runs `method` on the account as it was at its block. A failing exit code is a result, not an error. */
export async function runGetMethodOn(client: LiteClient, tvm: TvmPool, acc: AccountAt, method: string | bigint, stack: TupleItem[] = []): Promise<GetMethodResult> {
  if (acc.status !== 'active' || !acc.code || !acc.data) return { exitCode: NO_CODE_EXIT_CODE, gasUsed: 0, stack: [] };
  const methodId = typeof method === 'string' ? methodIdOf(method) : method;
  if (methodId < -(2n ** 31n) || methodId >= 2n ** 31n) throw new ChainError('invalid_input', `method id ${methodId} is outside the 32-bit range`);
  const key = runKey(acc, methodId, stack);
  let out = runs.get(key);
  if (!out) {
    out = await execute(client, tvm, acc, methodId, stack);
    runs.set(key, out);
  }
  return { exitCode: out.exitCode, gasUsed: out.gasUsed, stack: parseTuple(Cell.fromBase64(out.stackBoc)) };
}

async function execute(client: LiteClient, tvm: TvmPool, acc: AccountAt, methodId: bigint, stack: TupleItem[]): Promise<RunOutput> {
  const config = await configAt(client, acc.block.id);
  const libs = emptyLibraries();
  const extraCurrency = Object.fromEntries([...(acc.account?.storage.balance.other ?? [])]);
  const stackBoc = stack.length ? boc64(serializeTuple(stack)) : '';
  for (let fetched = 0; ; fetched++) {
    const res = await tvm.getMethod({
      code: boc64(acc.code!),
      data: boc64(acc.data!),
      libs: libs.size > 0 ? boc64(librariesCell(libs)!) : undefined,
      methodId: Number(methodId),
      stack: stackBoc,
      config,
      verbosity: 'short',
      address: acc.address.toRawString(),
      unixTime: acc.block.utime,
      balance: acc.balance,
      gasLimit: GAS_LIMIT,
      extraCurrency,
    });
    const out = res.output;
    if (!out.success) throw new ChainError('failed', `get-method failed: ${out.error}`);
    if (out.missing_library && fetched < MAX_LIBRARY_FETCHES) {
      if (await fetchLibrary(client, Buffer.from(out.missing_library, 'hex'), libs)) continue;
    }
    return { exitCode: out.vm_exit_code, gasUsed: Number(out.gas_used), stackBoc: out.stack };
  }
}

const boc64 = (c: Cell) => c.toBoc().toString('base64');

/** Runs `method` on `address` at `block`; undefined unless it exits with 0 or 1 (success). */
export async function tryGetMethod(
  client: LiteClient,
  tvm: TvmPool,
  block: McBlock,
  address: Address | AccountAt,
  method: string,
  stack: TupleItem[] = [],
): Promise<TupleItem[] | undefined> {
  const acc = address instanceof Address ? await accountIn(client, address, block) : address;
  const r = await runGetMethodOn(client, tvm, acc, method, stack);
  return r.exitCode === 0 || r.exitCode === 1 ? r.stack : undefined;
}
