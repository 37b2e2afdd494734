// Running a get-method through the lite server (liteServer.runSmcMethod, mode 4: result stack only) at a
// masterchain block. Used by runGetMethod and by the routes that read contracts (getTokenData, dnsResolve).
import { Address, Cell, crc16, parseTuple, serializeTuple, type TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';

/** The id of a get-method name: crc16(name) | 0x10000, as FunC/Tolk and tonlib compute it. */
export function methodIdOf(name: string): bigint {
  return BigInt((crc16(Buffer.from(name, 'utf8')).readUInt16BE(0)) | 0x10000);
}

export interface GetMethodResult {
  exitCode: number;
  stack: TupleItem[];
}

/** Runs `method` on `address` at masterchain block `block`. A failing exit code is a result, not an error. */
export async function runGetMethodAt(
  client: LiteClient,
  block: tonNode_blockIdExt,
  address: Address,
  method: string | bigint,
  stack: TupleItem[] = [],
): Promise<GetMethodResult> {
  const res = await client.engine.query(Functions.liteServer_runSmcMethod, {
    kind: 'liteServer.runSmcMethod',
    mode: 4,
    id: block,
    account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
    methodId: (typeof method === 'string' ? methodIdOf(method) : method).toString(),
    params: serializeTuple(stack).toBoc(),
  });
  const out = res.result && res.result.length > 0 ? parseTuple(Cell.fromBoc(res.result)[0]) : [];
  return { exitCode: res.exitCode, stack: out };
}

/** Runs a get-method and returns its stack, or undefined when it does not exit with 0 or 1 (success). */
export async function tryGetMethod(
  client: LiteClient,
  block: tonNode_blockIdExt,
  address: Address,
  method: string,
  stack: TupleItem[] = [],
): Promise<TupleItem[] | undefined> {
  const r = await runGetMethodAt(client, block, address, method, stack);
  return r.exitCode === 0 || r.exitCode === 1 ? r.stack : undefined;
}
