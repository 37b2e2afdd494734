// Writes the rows of one masterchain block (it and the shard blocks it registered) in one database
// transaction together with the cursor, so a crash leaves either all of it or none; re-running a block
// is a no-op (every insert skips rows that exist). The same transaction assembles the traces the block's
// transactions belong to (traces.ts) and classifies those it completes (trace-actions.ts): the traces the
// block holds whole before their rows are inserted, the others (begun by an earlier block) after.
//
// Each table gets ONE statement per masterchain block (lib/indexer/sql.ts insertRows).
import type { PrismaClient } from '../db/generated/client';
import { latestByAccount, type AccountStateRecord } from './account-state';
import { actionTables, classifyBatchTraces, classifyTraces, insertActions, type Classified } from './trace-actions';
import { Prisma } from '../db/generated/client';
import { dec, hex, insertItem, insertTables, optHex, run, runWith, writeMode, writeTransaction, type Row, type TableRows, type Tx } from './sql';
import { planTraces, traceUpsert, wholeNewTraces, writeTraces, type HeldCount, type TracePlan, type TraceResultRow, type TraceWrite } from './traces';
import type { OpenTraces } from './open-traces';
import { withTraceIds } from './derive/trace-ids';
import { blockHeaderColumns, type MessageContentRecord, type MessageRecord, type ParsedBlock, type TransactionRecord } from '../chain/records';

export interface Cursor {
  indexerId: string;
  mcSeqno: number;
  /**
   * false: a range backfill (range-backfill.ts) writes the block and leaves the follower's cursor where
   * it is; its own progress is the masterchain blocks stored. Default true.
   */
  advance?: boolean;
}

// Two processes may store the same masterchain block at once (a range backfill reaching blocks the
// follower indexes): each holds this lock, keyed by the seqno, for its transaction, so the second one
// sees the first one's rows and adds nothing (every insert skips existing rows, traces count only new
// transactions). Two int4 keys: a space of its own, apart from the migrations' bigint lock.
const BLOCK_LOCK_SPACE = 0x41544c42; // "ATLB"

/** A block of the masterchain block's shard state: the block itself and each shard's top block. */
export interface ShardStateEntry {
  workchain: number;
  shard: bigint; // signed
  seqno: number;
}

const BLOCK_COLUMNS = [
  'workchain', 'shard', 'seqno', 'root_hash', 'file_hash', 'mc_block_seqno', 'global_id', 'version', 'after_merge', 'before_split',
  'after_split', 'want_merge', 'want_split', 'key_block', 'vert_seqno_incr', 'flags', 'gen_utime', 'start_lt', 'end_lt',
  'validator_list_hash_short', 'gen_catchain_seqno', 'min_ref_mc_seqno', 'prev_key_block_seqno', 'vert_seqno', 'master_ref_seqno',
  'rand_seed', 'created_by', 'tx_count', 'prev_blocks',
] as const;
const TRANSACTION_COLUMNS = [
  'hash', 'account', 'lt', 'now', 'block_workchain', 'block_shard', 'block_seqno', 'mc_block_seqno', 'prev_trans_hash', 'prev_trans_lt',
  'orig_status', 'end_status', 'total_fees', 'total_fees_extra_currencies', 'description', 'account_state_hash_before',
  'account_state_hash_after', 'trace_id',
] as const;
const MESSAGE_COLUMNS = [
  'tx_hash', 'tx_lt', 'msg_hash', 'direction', 'source', 'destination', 'value', 'value_extra_currencies', 'fwd_fee', 'ihr_fee',
  'extra_flags', 'created_lt', 'created_at', 'opcode', 'ihr_disabled', 'bounce', 'bounced', 'import_fee', 'body_hash',
  'init_state_hash', 'msg_hash_norm', 'trace_id', 'sort_lt', 'mc_block_seqno',
] as const;
const CONTENT_COLUMNS = ['hash', 'boc'] as const;
const BOC_COLUMNS = ['hash', 'boc'] as const;
const ACCOUNT_STATE_COLUMNS = [
  'hash', 'account', 'balance', 'balance_extra_currencies', 'account_status', 'frozen_hash', 'data_hash', 'code_hash', 'mc_block_seqno',
] as const;
const LATEST_COLUMNS = [
  'account', 'account_state_hash', 'last_trans_lt', 'last_trans_hash', 'timestamp', 'balance', 'balance_extra_currencies',
  'account_status', 'frozen_hash', 'data_hash', 'code_hash', 'data_boc', 'code_boc',
] as const;
const SHARD_STATE_COLUMNS = ['mc_seqno', 'workchain', 'shard', 'seqno'] as const;
// The BoC columns, written as binary parameters (sql.ts TableRows.binary).
const BOC_BINARY = ['boc'];
const LATEST_BINARY = ['data_boc', 'code_boc'];

// Only a newer state replaces the latest one: re-indexing an old range must not roll it back.
const LATEST_UPSERT = `ON CONFLICT (account) DO UPDATE SET ${LATEST_COLUMNS.filter((c) => c !== 'account')
  .map((c) => `"${c}" = EXCLUDED."${c}"`)
  .join(', ')} WHERE latest_account_states.last_trans_lt < EXCLUDED.last_trans_lt`;

/** What a stored masterchain block changed, for whoever is told of it (lib/indexer/events.ts committed). */
export interface StoredBlock {
  /** The traces its transactions joined or started. */
  traceIds: Buffer[];
  /** The newest state of each account its transactions touched. */
  latest: AccountStateRecord[];
}

export async function storeMasterchainBlock(
  prisma: PrismaClient,
  blocks: ParsedBlock[],
  cursor: Cursor,
  accountStates: AccountStateRecord[] = [],
  shardState: ShardStateEntry[] = [],
  derived: TableRows[] = [],
  open?: OpenTraces,
): Promise<StoredBlock> {
  const txRecords = blocks.flatMap((b) => b.transactions);
  const msgRecords = blocks.flatMap((b) => b.messages);
  // Every transaction, message and state row carries its masterchain seqno (the partition key on
  // PostgreSQL, lib/db/partitions.ts): the one that registered its block; a block parsed without one
  // (tests) is stored under the masterchain block being written.
  const mcSeqnoOf = new Map(txRecords.map((t) => [t.hash.toString('hex'), t.mcBlockSeqno ?? cursor.mcSeqno]));
  const txSeqno = (txHash: Buffer) => mcSeqnoOf.get(txHash.toString('hex')) ?? cursor.mcSeqno;
  const contents = new Map<string, MessageContentRecord>();
  for (const b of blocks) for (const c of b.contents) contents.set(c.hash.toString('hex'), c);
  // One row per account: an upsert may not touch the same row twice in one statement.
  const latest = latestByAccount(accountStates);

  let traceIds: Buffer[] = [];
  let after: { traceOf: Map<string, Buffer>; open: Set<string> } | undefined;
  const records = { transactions: txRecords, messages: msgRecords, bodies: new Map([...contents].map(([hash, c]) => [hash, c.boc])) };
  await writeTransaction(prisma, async (tx) => {
      await run(tx, Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${BLOCK_LOCK_SPACE}::int4, ${cursor.mcSeqno}::int4)`);
      const plan = await planTraces(tx, txRecords, msgRecords, cursor.mcSeqno, { senderTrace: (h) => open?.senderTrace(h) });
      const { traceOf } = plan;
      traceIds = [...new Map([...traceOf.values()].map((id) => [id.toString('hex'), id])).values()];
      const traceHex = (txHash: Buffer) => optHex(traceOf.get(txHash.toString('hex')) ?? null);
      await insertTables(tx, [
        { table: 'blocks', columns: BLOCK_COLUMNS, rows: blocks.map(blockRow) },
        { table: 'account_states', columns: ACCOUNT_STATE_COLUMNS, rows: accountStates.map((a) => ({ ...accountStateRow(a), mc_block_seqno: cursor.mcSeqno })) },
        { table: 'latest_account_states', columns: LATEST_COLUMNS, rows: [...latest.values()].map(latestRow), onConflict: LATEST_UPSERT, binary: LATEST_BINARY },
        {
          table: 'shard_state',
          columns: SHARD_STATE_COLUMNS,
          rows: shardState.map((s) => ({ mc_seqno: cursor.mcSeqno, workchain: s.workchain, shard: s.shard.toString(), seqno: s.seqno })),
        },
        ...derived.map((table) => withTraceIds(table, (hash) => traceOf.get(hash) ?? null)),
      ]);
      // The traces the batch holds whole are classified before their rows are written, so each is
      // inserted once, classified (no UPDATE of every trace row of the block). After the states and the
      // derived token tables: "what is at address X" reads them.
      const batch = { traceOf, ...records };
      const early = await classifyBatchTraces(tx, wholeNewTraces(plan), batch);
      const chain: TableRows[] = [
        { table: 'transactions', columns: TRANSACTION_COLUMNS, rows: txRecords.map((t) => ({ ...transactionRow(t), mc_block_seqno: txSeqno(t.hash), trace_id: traceHex(t.hash) })) },
        { table: 'transaction_bocs', columns: BOC_COLUMNS, rows: txRecords.map((t) => ({ hash: hex(t.hash), boc: t.boc })), binary: BOC_BINARY },
        { table: 'messages', columns: MESSAGE_COLUMNS, rows: msgRecords.map((m) => ({ ...messageRow(m), mc_block_seqno: txSeqno(m.txHash), trace_id: traceHex(m.txHash) })) },
        { table: 'message_contents', columns: CONTENT_COLUMNS, rows: [...contents.values()].map((c) => ({ hash: hex(c.hash), boc: c.boc })), binary: BOC_BINARY },
      ];
      // The cursor moves only forward (a range backfill leaves it alone).
      const advance = cursor.advance === false ? undefined : Prisma.sql`
        UPDATE indexer_state SET last_mc_seqno = ${cursor.mcSeqno}, updated_at = now()
        WHERE id = ${cursor.indexerId} AND (last_mc_seqno IS NULL OR last_mc_seqno < ${cursor.mcSeqno}) RETURNING id`;
      const held = (id: string) => open?.count(id) ?? 0;
      const { completed, whole, moved, open: stillOpen } = await writeTracesAndRows(tx, plan, early, chain, held, advance);
      after = { traceOf, open: stillOpen };
      // The rest (completed by this block, begun by an earlier one) are built from the records held of
      // them (open-traces.ts) or read back, and updated. None was classified before (no actions to replace).
      const late = open ? open.withHeld(whole.keys(), batch) : batch;
      await classifyTraces(tx, completed, { ...late, whole }, { unclassified: true });
      if (moved === false) {
        const state = await run(tx, Prisma.sql`SELECT id FROM indexer_state WHERE id = ${cursor.indexerId}`);
        if (state.length === 0) throw new Error(`indexer ${cursor.indexerId} has no state row; register the chain first`);
      }
  });
  if (open && after) open.update(records, after.traceOf, after.open);
  return { traceIds, latest: [...latest.values()] };
}

/**
 * The traces' upsert, the batch's transactions and messages, the actions of the traces classified early
 * and the cursor (`advance`, an UPDATE … RETURNING id) in one statement (traces.ts traceUpsert: its
 * counting subqueries must not see the batch's rows, and a statement's WITH items all read the snapshot
 * taken before it). The actions of a trace are kept only if its row was inserted (classified), not
 * merged into a stored one. `moved`: whether the cursor moved (undefined without `advance`).
 */
async function writeTracesAndRows(
  tx: Tx,
  plan: TracePlan,
  early: Classified,
  chain: TableRows[],
  held: HeldCount,
  advance?: Prisma.Sql,
): Promise<TraceWrite & { moved?: boolean }> {
  if (writeMode.statementPerTable) {
    const written = await writeTraces(tx, plan, early.states, held);
    await insertTables(tx, chain);
    await insertActions(tx, early, written.classifiedInserted);
    return { ...written, moved: advance ? (await run(tx, advance)).length > 0 : undefined };
  }
  const upsert = traceUpsert(plan, early.states, held);
  const kept = Prisma.sql`WHERE r.trace_id IN (SELECT trace_id FROM tr WHERE inserted)`;
  const traced = plan.deltas.length > 0;
  const items = [
    ...(traced ? [Prisma.sql`tr AS (${upsert.sql})`] : []),
    ...chain.filter((t) => t.rows.length > 0).map((t, i) => insertItem(`w${i}`, t)),
    ...actionTables(early).filter((t) => t.rows.length > 0).map((t, i) => insertItem(`a${i}`, t, { filter: kept })),
    ...(advance ? [Prisma.sql`cur AS (${advance})`] : []),
  ];
  // One row at least (the cursor's count), then one per trace.
  const moved = advance ? Prisma.sql`(SELECT count(*) FROM cur)::int` : Prisma.sql`NULL::int`;
  const rows = await runWith<TraceResultRow & { moved: number | null }>(
    tx,
    items,
    traced ? Prisma.sql`SELECT tr.*, m.moved FROM (SELECT ${moved} AS moved) AS m LEFT JOIN tr ON true` : Prisma.sql`SELECT ${moved} AS moved`,
  );
  const written = upsert.read(rows.filter((r) => r.trace_id));
  return { ...written, moved: advance ? (rows[0]?.moved ?? 0) > 0 : undefined };
}

function blockRow({ block: b }: ParsedBlock): Row {
  return {
    workchain: b.workchain,
    shard: b.shard.toString(),
    seqno: b.seqno,
    root_hash: hex(b.rootHash),
    file_hash: hex(b.fileHash),
    mc_block_seqno: b.mcBlockSeqno,
    ...blockHeaderColumns(b),
    gen_utime: b.genUtime.toString(),
    start_lt: b.startLt.toString(),
    end_lt: b.endLt.toString(),
    validator_list_hash_short: b.validatorListHashShort.toString(),
    gen_catchain_seqno: b.genCatchainSeqno,
    min_ref_mc_seqno: b.minRefMcSeqno,
    prev_key_block_seqno: b.prevKeyBlockSeqno,
    vert_seqno: b.vertSeqno,
    master_ref_seqno: b.masterRefSeqno,
    rand_seed: hex(b.randSeed),
    created_by: hex(b.createdBy),
    tx_count: b.txCount,
    prev_blocks: b.prevBlocks,
  };
}

function transactionRow(t: TransactionRecord): Row {
  return {
    hash: hex(t.hash),
    account: t.account,
    lt: t.lt.toString(),
    now: t.now,
    block_workchain: t.blockWorkchain,
    block_shard: t.blockShard.toString(),
    block_seqno: t.blockSeqno,
    prev_trans_hash: hex(t.prevTransHash),
    prev_trans_lt: t.prevTransLt.toString(),
    orig_status: t.origStatus,
    end_status: t.endStatus,
    total_fees: t.totalFees.toString(),
    total_fees_extra_currencies: t.totalFeesExtraCurrencies,
    description: t.description,
    account_state_hash_before: hex(t.accountStateHashBefore),
    account_state_hash_after: hex(t.accountStateHashAfter),
  };
}

function messageRow(m: MessageRecord): Row {
  return {
    tx_hash: hex(m.txHash),
    tx_lt: m.txLt.toString(),
    msg_hash: hex(m.msgHash),
    direction: m.direction,
    source: m.source,
    destination: m.destination,
    value: dec(m.value),
    value_extra_currencies: m.valueExtraCurrencies,
    fwd_fee: dec(m.fwdFee),
    ihr_fee: dec(m.ihrFee),
    extra_flags: dec(m.extraFlags),
    created_lt: dec(m.createdLt),
    created_at: dec(m.createdAt),
    opcode: m.opcode,
    ihr_disabled: m.ihrDisabled,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: dec(m.importFee),
    body_hash: hex(m.bodyHash),
    init_state_hash: optHex(m.initStateHash),
    msg_hash_norm: optHex(m.msgHashNorm),
    // /api/v3/messages' order (lib/api/v3/queries/messages.ts): an external-in message has no created_lt.
    sort_lt: (m.createdLt ?? m.txLt).toString(),
  };
}

function accountStateRow(a: AccountStateRecord): Row {
  return {
    hash: hex(a.hash),
    account: a.account,
    balance: a.balance.toString(),
    balance_extra_currencies: a.balanceExtraCurrencies,
    account_status: a.accountStatus,
    frozen_hash: optHex(a.frozenHash),
    data_hash: optHex(a.dataHash),
    code_hash: optHex(a.codeHash),
  };
}

function latestRow(a: AccountStateRecord): Row {
  const { hash: _history, ...state } = accountStateRow(a);
  return {
    ...state,
    account_state_hash: hex(a.hash),
    last_trans_lt: a.lastTransLt.toString(),
    last_trans_hash: hex(a.lastTransHash),
    timestamp: a.timestamp,
    data_boc: a.dataBoc,
    code_boc: a.codeBoc,
  };
}
