// Compares the database with the chain over a range of masterchain blocks: every block and transaction
// present exactly once, with the same hashes, lts, fees, descriptions and message counts. The chain side
// is the same download and parse the indexer does, so a difference means the stored rows changed or are
// missing (or the parser changed since they were written).
import type { LiteClient } from 'ton-lite-client';
import type { PrismaClient } from '../db/generated/client';
import { log } from '../log';
import { Indexer } from './follower';
import type { TransactionRecord } from './records';

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

export async function verifyRange(o: VerifyOptions): Promise<VerifyReport> {
  // The indexer's own download path; it never writes here (only collect() is used).
  const reader = new Indexer({ prisma: o.prisma, client: o.client, log, network: 'verify' });
  const report: VerifyReport = { blocks: 0, transactions: 0, differences: [] };
  const diff = (s: string) => report.differences.push(s);

  for (let seqno = o.from; seqno <= o.to; seqno++) {
    const before = report.differences.length;
    const { blocks } = await reader.collect(seqno);
    for (const { block: b } of blocks) {
      report.blocks++;
      const id = `block ${b.workchain}:${BigInt.asUintN(64, b.shard).toString(16)}:${b.seqno}`;
      const row = await o.prisma.block.findUnique({ where: { workchain_shard_seqno: { workchain: b.workchain, shard: b.shard, seqno: b.seqno } } });
      if (!row) diff(`${id} is missing`);
      else {
        if (!Buffer.from(row.rootHash).equals(b.rootHash)) diff(`${id}: root_hash ${hex(row.rootHash)} != ${hex(b.rootHash)}`);
        if (!Buffer.from(row.fileHash).equals(b.fileHash)) diff(`${id}: file_hash ${hex(row.fileHash)} != ${hex(b.fileHash)}`);
        if (row.txCount !== b.txCount) diff(`${id}: tx_count ${row.txCount} != ${b.txCount}`);
      }
    }
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
    o.onBlock?.(seqno, report.differences.length - before);
  }
  return report;
}
