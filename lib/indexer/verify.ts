// Compares the database with the chain over a range of masterchain blocks: every block and transaction
// present exactly once, with the same hashes, lts, fees, descriptions and message counts, and the shard
// topology: each masterchain block's rows are exactly the shard blocks it registered (walking back from
// its shard tops through splits and merges to the previous masterchain block's), each block under the
// masterchain block that registered it and no other, with its prev refs and split/merge flags, and the
// shard state rows naming its tops. The chain side is the same download and parse the indexer does, so
// a difference means the stored rows changed or are missing (or the parser changed since they were written).
import { Address, beginCell } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { accountIn, stateBlock } from '../chain/account-state';
import { tryGetMethod } from '../chain/get-method';
import { Prisma, type PrismaClient } from '../db/generated/client';
import { rawUpper } from '../ton/address';
import { readJettonData, readWalletData, stackAddress } from '../ton/jetton-getters';
import { TvmRefused, type TvmPool } from '../tvm/pool';
import { log } from '../log';
import { Indexer } from './follower';
import { shardBlockName } from './parse-block';
import type { ParsedBlock, TransactionRecord } from '../chain/records';

export interface VerifyOptions {
  prisma: PrismaClient;
  client: LiteClient;
  from: number;
  to: number;
  /** Called after each masterchain block (progress). */
  onBlock?: (seqno: number, differences: number) => void;
}

export interface VerifyReport {
  blocks: number;
  transactions: number;
  /** One line per difference, naming the block or transaction. */
  differences: string[];
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** JSON with sorted keys: jsonb does not keep key order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );
}

/**
 * The counters of every trace a masterchain block touched against the rows (lib/indexer/traces.ts):
 * transactions = its transactions; messages = internal in-messages of its non-root transactions;
 * pending_messages = internal out-messages − messages; state complete ⇔ nothing pending (or broken).
 */
async function verifyTraces(prisma: PrismaClient, mcSeqno: number): Promise<string[]> {
  const rows = await prisma.$queryRaw<
    { trace_id: Uint8Array; state: string; transactions: number; messages: number; pending_messages: number; txs: bigint; joined: bigint; outs: bigint }[]
  >`
    SELECT tr.trace_id, tr.state, tr.transactions, tr.messages, tr.pending_messages,
      (SELECT count(*) FROM transactions t WHERE t.trace_id = tr.trace_id) AS txs,
      (SELECT count(*) FROM messages m WHERE m.trace_id = tr.trace_id AND m.direction = 'in' AND m.source IS NOT NULL AND m.tx_hash <> tr.trace_id) AS joined,
      (SELECT count(*) FROM messages m WHERE m.trace_id = tr.trace_id AND m.direction = 'out' AND m.destination IS NOT NULL) AS outs
    FROM traces tr WHERE tr.trace_id IN (SELECT DISTINCT trace_id FROM transactions WHERE mc_block_seqno = ${mcSeqno})`;
  const out: string[] = [];
  for (const r of rows) {
    const name = `trace ${hex(r.trace_id)}`;
    if (BigInt(r.transactions) !== BigInt(r.txs)) out.push(`${name}: transactions ${r.transactions} != ${r.txs} stored`);
    if (BigInt(r.messages) !== BigInt(r.joined)) out.push(`${name}: messages ${r.messages} != ${r.joined} delivered`);
    if (BigInt(r.pending_messages) !== BigInt(r.outs) - BigInt(r.joined)) out.push(`${name}: pending_messages ${r.pending_messages} != ${BigInt(r.outs) - BigInt(r.joined)}`);
    const want = r.state === 'broken' ? 'broken' : r.pending_messages > 0 ? 'pending' : 'complete';
    if (r.state !== want) out.push(`${name}: state ${r.state} with ${r.pending_messages} pending messages`);
  }
  return out;
}

export async function verifyRange(o: VerifyOptions): Promise<VerifyReport> {
  // The indexer's own download path; it never writes here (only collect() is used).
  const reader = new Indexer({ prisma: o.prisma, client: o.client, log, network: 'verify' });
  const report: VerifyReport = { blocks: 0, transactions: 0, differences: [] };
  const diff = (s: string) => report.differences.push(s);

  let previous = new Set<string>();
  for (let seqno = o.from; seqno <= o.to; seqno++) {
    const before = report.differences.length;
    const { blocks, shardState } = await reader.collect(seqno);
    for (const { block: b } of blocks) {
      report.blocks++;
      const id = `block ${shardBlockName(b)}`;
      const row = await o.prisma.block.findUnique({ where: { workchain_shard_seqno: { workchain: b.workchain, shard: b.shard, seqno: b.seqno } } });
      if (!row) diff(`${id} is missing`);
      else for (const line of blockDifferences(row, b)) diff(`${id}: ${line}`);
    }
    for (const line of await topologyDifferences(o.prisma, seqno, blocks, shardState, previous)) diff(line);
    previous = new Set(blocks.map((p) => shardBlockName(p.block)));
    const chainTxs = new Map<string, TransactionRecord>();
    const msgCounts = new Map<string, number>();
    for (const p of blocks) {
      for (const t of p.transactions) chainTxs.set(t.hash.toString('hex'), t);
      for (const m of p.messages) msgCounts.set(m.txHash.toString('hex'), (msgCounts.get(m.txHash.toString('hex')) ?? 0) + 1);
    }
    report.transactions += chainTxs.size;

    const rows = await o.prisma.transaction.findMany({ where: { mcBlockSeqno: seqno } });
    const stored = new Map(rows.map((r) => [hex(r.hash), r]));
    const storedMsgs = await o.prisma.message.groupBy({ by: ['txHash'], where: { txHash: { in: rows.map((r) => r.hash) } }, _count: true });
    const storedMsgCounts = new Map(storedMsgs.map((m) => [hex(m.txHash), m._count]));
    for (const [h, t] of chainTxs) {
      const r = stored.get(h);
      const name = `transaction ${h} (${t.account} lt ${t.lt})`;
      if (!r) {
        diff(`${name} is missing`);
        continue;
      }
      const fields: [string, unknown, unknown][] = [
        ['account', r.account, t.account],
        ['lt', r.lt, t.lt],
        ['now', r.now, t.now],
        ['block', `${r.blockWorkchain}:${r.blockShard}:${r.blockSeqno}`, `${t.blockWorkchain}:${t.blockShard}:${t.blockSeqno}`],
        ['prev_trans', `${hex(r.prevTransHash)}@${r.prevTransLt}`, `${t.prevTransHash.toString('hex')}@${t.prevTransLt}`],
        ['total_fees', r.totalFees.toString(), t.totalFees.toString()],
        ['end_status', r.endStatus, t.endStatus],
        ['description', canonical(r.description), canonical(t.description)],
        ['messages', storedMsgCounts.get(h) ?? 0, msgCounts.get(h) ?? 0],
      ];
      for (const [field, got, want] of fields) if (got !== want) diff(`${name}: ${field} ${String(got)} != ${String(want)}`);
    }
    for (const h of stored.keys()) if (!chainTxs.has(h)) diff(`transaction ${h} is stored under masterchain block ${seqno} but is not in it`);
    for (const r of rows) if (!r.traceId) diff(`transaction ${hex(r.hash)} has no trace_id`);
    for (const line of await verifyTraces(o.prisma, seqno)) diff(line);
    o.onBlock?.(seqno, report.differences.length - before);
  }
  return report;
}

type BlockRow = NonNullable<Awaited<ReturnType<PrismaClient['block']['findUnique']>>>;

/** A stored block against the chain's: hashes, transactions, the masterchain block that registered it, prev refs, split/merge flags. */
function blockDifferences(row: BlockRow, b: ParsedBlock['block']): string[] {
  const out: string[] = [];
  if (!Buffer.from(row.rootHash).equals(b.rootHash)) out.push(`root_hash ${hex(row.rootHash)} != ${hex(b.rootHash)}`);
  if (!Buffer.from(row.fileHash).equals(b.fileHash)) out.push(`file_hash ${hex(row.fileHash)} != ${hex(b.fileHash)}`);
  if (row.txCount !== b.txCount) out.push(`tx_count ${row.txCount} != ${b.txCount}`);
  if (row.mcBlockSeqno !== b.mcBlockSeqno) out.push(`mc_block_seqno ${row.mcBlockSeqno} != ${b.mcBlockSeqno}`);
  const flags = (x: { afterMerge: boolean; beforeSplit: boolean; afterSplit: boolean; wantSplit: boolean; wantMerge: boolean }) =>
    `after_merge=${x.afterMerge} before_split=${x.beforeSplit} after_split=${x.afterSplit} want_split=${x.wantSplit} want_merge=${x.wantMerge}`;
  if (flags(row) !== flags(b)) out.push(`${flags(row)} != ${flags(b)}`);
  if (canonical(row.prevBlocks) !== canonical(b.prevBlocks)) out.push(`prev_blocks ${canonical(row.prevBlocks)} != ${canonical(b.prevBlocks)}`);
  return out;
}

/**
 * The shard topology of one masterchain block: the rows stored under it are exactly the shard blocks
 * it registered; none of them was registered by the previous masterchain block too; each follows
 * blocks registered with it or the previous masterchain block's tops; its shard state rows are its tops.
 */
async function topologyDifferences(
  prisma: PrismaClient,
  seqno: number,
  blocks: ParsedBlock[],
  shardState: { workchain: number; shard: bigint; seqno: number }[],
  previous: Set<string>,
): Promise<string[]> {
  const out: string[] = [];
  const chain = new Set(blocks.map((p) => shardBlockName(p.block)));
  const rows = await prisma.block.findMany({ where: { mcBlockSeqno: seqno }, select: { workchain: true, shard: true, seqno: true } });
  for (const r of rows) if (!chain.has(shardBlockName(r))) out.push(`block ${shardBlockName(r)} is stored under masterchain block ${seqno}, which did not register it`);
  for (const name of chain) if (previous.has(name)) out.push(`block ${name} is registered by masterchain blocks ${seqno - 1} and ${seqno}`);
  const tops = await prisma.shardState.findMany({ where: { mcSeqno: seqno }, select: { workchain: true, shard: true, seqno: true } });
  const want = shardState.map(shardBlockName).sort();
  const got = tops.map(shardBlockName).sort();
  if (want.join() !== got.join()) out.push(`shard state of masterchain block ${seqno}: ${got.join(' ')} != ${want.join(' ')}`);
  const previousTops = seqno > 1 ? await prisma.shardState.findMany({ where: { mcSeqno: seqno - 1 }, select: { workchain: true, shard: true, seqno: true } }) : [];
  const reachable = new Set([...chain, ...previousTops.map(shardBlockName)]);
  for (const { block: b } of blocks) {
    for (const p of b.prevBlocks) {
      const name = shardBlockName({ workchain: p.workchain, shard: BigInt(p.shard), seqno: p.seqno });
      if (b.workchain !== -1 && p.seqno > 0 && seqno > 1 && previousTops.length > 0 && !reachable.has(name)) {
        out.push(`block ${shardBlockName(b)} follows ${name}, neither registered with it nor a top of masterchain block ${seqno - 1}`);
      }
    }
  }
  return out;
}

export interface TokenVerifyOptions {
  prisma: PrismaClient;
  client: LiteClient;
  tvm: TvmPool;
  /** The masterchain block the index reached (its cursor): the tables hold the states as of it. */
  seqno: number;
}

export interface TokenVerifyReport {
  masters: number;
  wallets: number;
  differences: string[];
  /** Get-methods the contract made unusable (a crash, a deadline, a result past the limits): not differences. */
  skipped: string[];
}

/** Whether `err` is the TVM pool refusing a run for what the contract did (lib/tvm/pool.ts). */
function contractRefusal(err: unknown): err is Error {
  return err instanceof TvmRefused && err.fromContract;
}

const PAGE = 500;

/**
 * Compares the jetton tables with the contracts' get-methods, run on each account's state at masterchain
 * block `seqno` as the chain holds it: every row's supply, admin, balance, owner and jetton, and every
 * indexed account whose code is a jetton interface has its row.
 */
export async function verifyJettons(o: TokenVerifyOptions): Promise<TokenVerifyReport> {
  const report: TokenVerifyReport = { masters: 0, wallets: 0, differences: [], skipped: [] };
  const diff = (s: string) => report.differences.push(s);
  const block = await stateBlock(o.client, o.seqno);
  const SKIPPED = Symbol('skipped');
  // A row whose get-method the contract makes unusable stays as it was last derived: listed as skipped.
  const getter = async (address: string, method: string, lt: bigint) => {
    const acc = await accountIn(o.client, Address.parseRaw(address), block);
    let stack;
    try {
      stack = await tryGetMethod(o.client, o.tvm, block, acc, method);
    } catch (err) {
      if (!contractRefusal(err)) throw err;
      report.skipped.push(`${address}: ${method}: ${err.message} (the row is as of lt ${lt}, the chain at ${acc.lastTxLt})`);
      return SKIPPED;
    }
    if (acc.lastTxLt !== lt) diff(`${address}: last_transaction_lt ${lt} != ${acc.lastTxLt} on the chain`);
    return stack;
  };
  const compare = (name: string, fields: [string, unknown, unknown][]) => {
    for (const [field, got, want] of fields) if (got !== want) diff(`${name}: ${field} ${String(got)} != ${String(want)}`);
  };
  const raw = (a: Address | null) => (a ? rawUpper(a) : null);

  for (let after = ''; ; ) {
    const masters = await o.prisma.jettonMaster.findMany({ where: { address: { gt: after } }, orderBy: { address: 'asc' }, take: PAGE });
    if (!masters.length) break;
    for (const m of masters) {
      report.masters++;
      const stack = await getter(m.address, 'get_jetton_data', m.lastTransactionLt);
      if (stack === SKIPPED) continue;
      if (!stack) {
        diff(`jetton master ${m.address}: get_jetton_data fails on the chain`);
        continue;
      }
      const d = readJettonData(stack);
      compare(`jetton master ${m.address}`, [
        ['total_supply', m.totalSupply.toFixed(), d.totalSupply.toString()],
        ['mintable', m.mintable, d.mintable],
        ['admin_address', m.adminAddress, raw(d.admin)],
      ]);
    }
    after = masters.at(-1)!.address;
  }
  for (let after = ''; ; ) {
    const wallets = await o.prisma.jettonWallet.findMany({ where: { address: { gt: after } }, orderBy: { address: 'asc' }, take: PAGE });
    if (!wallets.length) break;
    for (const w of wallets) {
      report.wallets++;
      const stack = await getter(w.address, 'get_wallet_data', w.lastTransactionLt);
      if (stack === SKIPPED) continue;
      if (!stack) {
        diff(`jetton wallet ${w.address}: get_wallet_data fails on the chain`);
        continue;
      }
      const d = readWalletData(stack);
      compare(`jetton wallet ${w.address}`, [
        ['balance', w.balance.toFixed(), d.balance.toString()],
        ['owner', w.owner, raw(d.owner)],
        ['jetton', w.jetton, raw(d.jetton)],
      ]);
    }
    after = wallets.at(-1)!.address;
  }
  // Accounts the derive stage found to be jetton contracts must each have their row.
  for (const [iface, table] of [
    ['jetton_master', 'jetton_masters'],
    ['jetton_wallet', 'jetton_wallets'],
  ] as const) {
    const missing = await o.prisma.$queryRaw<{ account: string }[]>(Prisma.sql`
      SELECT l.account FROM latest_account_states l
      JOIN code_interfaces c ON c.code_hash = l.code_hash
      WHERE c.interfaces @> ${JSON.stringify([iface])}::jsonb
        AND NOT EXISTS (SELECT 1 FROM ${Prisma.raw(table)} t WHERE t.address = l.account)`);
    for (const r of missing) {
      // A contract of jetton code whose getter it makes unusable has no row (derive_skips says why).
      const method = iface === 'jetton_master' ? 'get_jetton_data' : 'get_wallet_data';
      const refused = await refusalOf(r.account, method);
      if (refused) {
        report.skipped.push(`${r.account}: ${method}: ${refused} (not in ${table})`);
        continue;
      }
      // A contract with wallet code is a wallet of a jetton only when its master names it (derive/jettons.ts).
      if (iface === 'jetton_wallet' && !(await vouched(r.account))) continue;
      diff(`${iface} ${r.account} is missing from ${table}`);
    }
  }
  return report;

  /** Why the pool refuses `method` of `address` for what the contract does, if it does. */
  async function refusalOf(address: string, method: string): Promise<string | undefined> {
    try {
      await tryGetMethod(o.client, o.tvm, block, Address.parseRaw(address), method);
      return undefined;
    } catch (err) {
      if (contractRefusal(err)) return err.message;
      throw err;
    }
  }

  async function vouched(wallet: string): Promise<boolean> {
    let data;
    try {
      data = await tryGetMethod(o.client, o.tvm, block, Address.parseRaw(wallet), 'get_wallet_data');
    } catch (err) {
      if (contractRefusal(err)) return false;
      throw err;
    }
    if (!data) return false;
    try {
      const d = readWalletData(data);
      const named = await tryGetMethod(o.client, o.tvm, block, d.jetton, 'get_wallet_address', [
        { type: 'slice', cell: beginCell().storeAddress(d.owner).endCell() },
      ]);
      return !!named && raw(stackAddress(named[0])) === wallet;
    } catch {
      return false;
    }
  }
}
