// Writes the rows of one masterchain block (it and the shard blocks it registered) in one database
// transaction together with the cursor, so a crash leaves either all of it or none; re-running a block
// is a no-op (every insert skips rows that exist).
import type { PrismaClient } from '../db/generated/client';
import type { AccountStateRecord } from './account-state';
import type { MessageContentRecord, MessageRecord, ParsedBlock, TransactionRecord } from './records';

// Rows per INSERT: large enough to amortize round trips, small enough for PostgreSQL's 65535 parameters.
const CHUNK = 1000;

const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength) as Uint8Array<ArrayBuffer>;
const optBytes = (b: Buffer | null) => (b ? bytes(b) : null);
const dec = (n: bigint | null) => (n === null ? null : n.toString());

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export interface Cursor {
  indexerId: string;
  mcSeqno: number;
}

/** A block of the masterchain block's shard state: the block itself and each shard's top block. */
export interface ShardStateEntry {
  workchain: number;
  shard: bigint; // signed
  seqno: number;
}

export async function storeMasterchainBlock(
  prisma: PrismaClient,
  blocks: ParsedBlock[],
  cursor: Cursor,
  accountStates: AccountStateRecord[] = [],
  shardState: ShardStateEntry[] = [],
): Promise<void> {
  const transactions = blocks.flatMap((b) => b.transactions);
  const messages = blocks.flatMap((b) => b.messages);
  const contents = new Map<string, MessageContentRecord>();
  for (const b of blocks) for (const c of b.contents) contents.set(c.hash.toString('hex'), c);

  await prisma.$transaction(
    async (tx) => {
      await tx.block.createMany({ data: blocks.map((b) => blockRow(b)), skipDuplicates: true });
      for (const part of chunks(transactions)) await tx.transaction.createMany({ data: part.map(transactionRow), skipDuplicates: true });
      for (const part of chunks(messages)) await tx.message.createMany({ data: part.map(messageRow), skipDuplicates: true });
      for (const part of chunks([...contents.values()])) {
        await tx.messageContent.createMany({ data: part.map((c) => ({ hash: bytes(c.hash), boc: bytes(c.boc) })), skipDuplicates: true });
      }
      for (const part of chunks(accountStates)) {
        await tx.accountState.createMany({ data: part.map(accountStateRow), skipDuplicates: true });
      }
      for (const a of accountStates) {
        // Only a newer state replaces the latest one: re-indexing an old range must not roll it back.
        await tx.$executeRaw`
          INSERT INTO latest_account_states (account, account_state_hash, last_trans_lt, last_trans_hash, timestamp, balance,
            balance_extra_currencies, account_status, frozen_hash, data_hash, code_hash, data_boc, code_boc)
          VALUES (${a.account}, ${bytes(a.hash)}, ${a.lastTransLt}, ${bytes(a.lastTransHash)}, ${a.timestamp}, ${a.balance.toString()}::numeric,
            ${a.balanceExtraCurrencies ? JSON.stringify(a.balanceExtraCurrencies) : null}::jsonb, ${a.accountStatus}, ${optBytes(a.frozenHash)},
            ${optBytes(a.dataHash)}, ${optBytes(a.codeHash)}, ${optBytes(a.dataBoc)}, ${optBytes(a.codeBoc)})
          ON CONFLICT (account) DO UPDATE SET
            account_state_hash = EXCLUDED.account_state_hash, last_trans_lt = EXCLUDED.last_trans_lt,
            last_trans_hash = EXCLUDED.last_trans_hash, timestamp = EXCLUDED.timestamp, balance = EXCLUDED.balance,
            balance_extra_currencies = EXCLUDED.balance_extra_currencies, account_status = EXCLUDED.account_status,
            frozen_hash = EXCLUDED.frozen_hash, data_hash = EXCLUDED.data_hash, code_hash = EXCLUDED.code_hash,
            data_boc = EXCLUDED.data_boc, code_boc = EXCLUDED.code_boc
          WHERE latest_account_states.last_trans_lt < EXCLUDED.last_trans_lt`;
      }
      await tx.shardState.createMany({ data: shardState.map((s) => ({ mcSeqno: cursor.mcSeqno, ...s })), skipDuplicates: true });
      const moved = await tx.indexerState.updateMany({
        where: { id: cursor.indexerId, OR: [{ lastMcSeqno: null }, { lastMcSeqno: { lt: cursor.mcSeqno } }] },
        data: { lastMcSeqno: cursor.mcSeqno, updatedAt: new Date() },
      });
      if (moved.count === 0) {
        const state = await tx.indexerState.findUnique({ where: { id: cursor.indexerId } });
        if (!state) throw new Error(`indexer ${cursor.indexerId} has no state row; register the chain first`);
      }
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}

function blockRow({ block: b }: ParsedBlock) {
  return {
    ...b,
    rootHash: bytes(b.rootHash),
    fileHash: bytes(b.fileHash),
    randSeed: bytes(b.randSeed),
    createdBy: bytes(b.createdBy),
  };
}

function transactionRow(t: TransactionRecord) {
  return {
    ...t,
    hash: bytes(t.hash),
    prevTransHash: bytes(t.prevTransHash),
    totalFees: t.totalFees.toString(),
    totalFeesExtraCurrencies: t.totalFeesExtraCurrencies ?? undefined,
    description: t.description as object,
    accountStateHashBefore: bytes(t.accountStateHashBefore),
    accountStateHashAfter: bytes(t.accountStateHashAfter),
  };
}

function messageRow(m: MessageRecord) {
  return {
    ...m,
    txHash: bytes(m.txHash),
    msgHash: bytes(m.msgHash),
    value: dec(m.value),
    valueExtraCurrencies: m.valueExtraCurrencies ?? undefined,
    fwdFee: dec(m.fwdFee),
    ihrFee: dec(m.ihrFee),
    extraFlags: dec(m.extraFlags),
    importFee: dec(m.importFee),
    bodyHash: bytes(m.bodyHash),
    initStateHash: optBytes(m.initStateHash),
    msgHashNorm: optBytes(m.msgHashNorm),
  };
}

function accountStateRow(a: AccountStateRecord) {
  return {
    hash: bytes(a.hash),
    account: a.account,
    balance: a.balance.toString(),
    balanceExtraCurrencies: a.balanceExtraCurrencies ?? undefined,
    accountStatus: a.accountStatus,
    frozenHash: optBytes(a.frozenHash),
    dataHash: optBytes(a.dataHash),
    codeHash: optBytes(a.codeHash),
  };
}
