// estimateFee (api-v2.md §3.8) by emulation: the external message runs against the account's current
// state and the current config in the same TVM executor the chain runs (@ton/sandbox's), and the fees
// are read off the resulting transaction; each internal message it sends is run against its destination
// the same way. Libraries the code refers to are fetched from the lite server first.
import { Address, beginCell, Cell, external, loadMessage, storeMessage, type StateInit, type Transaction } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { accountIn, stateBlock, type AccountAt, type McBlock } from './account-state';
import { ChainError } from './errors';
import type { TvmPool } from '../tvm/pool';
import { runMessage } from '../tvm/transaction';
import { configAt, librariesUnder } from './tvm';
import { transactionMessages } from './tx-json';

/** The state init an external message carries: code and data as given, none when neither is (toncenter's rule for sendQuery and estimateFee). */
export const stateInit = (code: Cell | null | undefined, data: Cell | null | undefined): StateInit | null =>
  code || data ? { code: code ?? undefined, data: data ?? undefined } : null;

export interface Fees {
  '@type': 'fees';
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

interface Emulation {
  tx: Transaction;
  cell: Cell;
}

interface Environment {
  client: LiteClient;
  tvm: TvmPool;
  block: McBlock;
  config: string;
  now: number;
}

/** Runs `message` on `account` as of `env.block`; the executor's reason when the message is not accepted. */
async function emulate(env: Environment, account: Address, message: Cell, ignoreChksig: boolean): Promise<Emulation | { error: string }> {
  const acc = await accountIn(env.client, account, env.block);
  // The code that runs is the account's or, for a deployment, the message's; either may be (or reach)
  // a library cell, which the chain resolves from the masterchain's libraries.
  const code = [acc.code, loadMessage(message.beginParse()).init?.code].filter((c): c is Cell => !!c);
  const libs = await librariesUnder(env.client, code);
  const shardAccount = shardAccountOf(acc);
  const res = await runMessage(env.tvm, { config: env.config, libs, shardAccount, message, now: env.now, lt: acc.lastTxLt + 1_000_000n, ignoreChksig });
  return 'error' in res ? res : { tx: res.tx, cell: res.cell };
}

/** ShardAccount: the account by reference, then its last transaction's hash and lt. */
export function shardAccountOf(acc: AccountAt): Cell {
  return beginCell().storeRef(acc.accountCell).storeBuffer(acc.lastTxHash).storeUint(acc.lastTxLt, 64).endCell();
}

/** The four fees of a transaction; the import fee is what total_fees holds beyond the phases' own fees. */
function feesOf(tx: Transaction): Fees {
  const d = tx.description;
  if (d.type !== 'generic') throw new ChainError('failed', `unexpected ${d.type} transaction in fee emulation`);
  const storage = d.storagePhase?.storageFeesCollected ?? 0n;
  const gas = d.computePhase.type === 'vm' ? d.computePhase.gasFees : 0n;
  const actionFees = d.actionPhase?.totalActionFees ?? 0n;
  const fwd = d.actionPhase?.totalFwdFees ?? 0n;
  return {
    '@type': 'fees',
    in_fwd_fee: Number(tx.totalFees.coins - storage - gas - actionFees),
    storage_fee: Number(storage),
    gas_fee: Number(gas),
    fwd_fee: Number(fwd),
  };
}

export async function estimateFees(client: LiteClient, tvm: TvmPool, address: Address, body: Cell, init: StateInit | null, ignoreChksig: boolean) {
  const block = await stateBlock(client);
  const env: Environment = { client, tvm, block, config: await configAt(client, block.id), now: Math.floor(Date.now() / 1000) };
  const message = beginCell()
    .store(storeMessage(external({ to: address, body, init: init ?? undefined })))
    .endCell();
  const source = await emulate(env, address, message, ignoreChksig);
  if ('error' in source) throw new ChainError('failed', `cannot apply external message to current state : ${source.error}`);
  const destinationFees: Fees[] = [];
  for (const out of transactionMessages(source.cell).outMsgs) {
    const m = loadMessage(out.beginParse());
    if (m.info.type !== 'internal') continue;
    // A destination that would not accept the message has no fees to show (tonlib leaves it out too).
    const result = await emulate(env, m.info.dest, out, false);
    if (!('error' in result)) destinationFees.push(feesOf(result.tx));
  }
  return { '@type': 'query.fees', source_fees: feesOf(source.tx), destination_fees: destinationFees };
}
