// Transaction rows → toncenter Transactions: their messages (in_msg, out_msgs by created_lt), bodies and
// init states, and the account states before and after (only `hash` when the state is not indexed).
import type { PrismaClient, Transaction } from '../../db/generated/client';
import { amountMap, b64, bytes, dec, hex } from './encode';
import { blockId, mapAccountState, mapMessage, orderDescription } from './mappers';
import type { MessageJson, TransactionJson } from './models';

export async function loadTransactions(prisma: PrismaClient, rows: Transaction[]): Promise<TransactionJson[]> {
  if (!rows.length) return [];
  const txHashes = rows.map((t) => bytes(t.hash));
  const stateHashes = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const t of rows) {
    stateHashes.set(hex(t.accountStateHashBefore), bytes(t.accountStateHashBefore));
    stateHashes.set(hex(t.accountStateHashAfter), bytes(t.accountStateHashAfter));
  }
  const [messages, states] = await Promise.all([
    prisma.message.findMany({ where: { txHash: { in: txHashes } } }),
    prisma.accountState.findMany({ where: { hash: { in: [...stateHashes.values()] } } }),
  ]);

  const contentHashes = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const m of messages) {
    if (m.bodyHash) contentHashes.set(hex(m.bodyHash), bytes(m.bodyHash));
    if (m.initStateHash) contentHashes.set(hex(m.initStateHash), bytes(m.initStateHash));
  }
  const contentRows = contentHashes.size ? await prisma.messageContent.findMany({ where: { hash: { in: [...contentHashes.values()] } } }) : [];
  const contents = new Map(contentRows.map((c) => [hex(c.hash), c.boc]));
  const stateByHash = new Map(states.map((s) => [hex(s.hash), s]));

  const byTx = new Map<string, { in: MessageJson | null; out: { lt: bigint | null; msg: MessageJson }[] }>();
  for (const t of rows) byTx.set(hex(t.hash), { in: null, out: [] });
  for (const m of messages) {
    const slot = byTx.get(hex(m.txHash));
    if (!slot) continue;
    const msg = mapMessage(m, contents);
    if (m.direction === 'in') slot.in = msg;
    else slot.out.push({ lt: m.createdLt, msg });
  }

  return rows.map((t): TransactionJson => {
    const slot = byTx.get(hex(t.hash))!;
    // created_lt ascending, a message without one first (toncenter's order).
    slot.out.sort((a, b) => (a.lt === b.lt ? 0 : a.lt === null ? -1 : b.lt === null ? 1 : a.lt < b.lt ? -1 : 1));
    type Status = TransactionJson['orig_status'];
    return {
      account: t.account,
      hash: b64(t.hash),
      lt: String(t.lt),
      now: t.now,
      mc_block_seqno: t.mcBlockSeqno,
      ...(t.traceId ? { trace_id: b64(t.traceId) } : {}),
      prev_trans_hash: b64(t.prevTransHash),
      prev_trans_lt: String(t.prevTransLt),
      orig_status: t.origStatus as Status,
      end_status: t.endStatus as Status,
      total_fees: dec(t.totalFees),
      total_fees_extra_currencies: amountMap(t.totalFeesExtraCurrencies),
      description: orderDescription(t.description),
      block_ref: blockId(t.blockWorkchain, t.blockShard, t.blockSeqno),
      in_msg: slot.in,
      out_msgs: slot.out.map((o) => o.msg),
      account_state_before: mapAccountState(t.accountStateHashBefore, stateByHash.get(hex(t.accountStateHashBefore))),
      account_state_after: mapAccountState(t.accountStateHashAfter, stateByHash.get(hex(t.accountStateHashAfter))),
      emulated: false,
      finality: 'finalized',
    };
  });
}

/** The accounts a transaction list's address_book covers: account, in_msg source, out_msg destinations. */
export function transactionAddresses(txs: TransactionJson[]): string[] {
  const out: string[] = [];
  for (const t of txs) {
    out.push(t.account);
    if (t.in_msg?.source) out.push(t.in_msg.source);
    for (const m of t.out_msgs) if (m.destination) out.push(m.destination);
  }
  return out;
}
