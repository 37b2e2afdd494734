// What a transaction did, read from its description (toncenter's shape).
import type { MessageJson } from '@/lib/api/v3/models/messages';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';

/** Success: not aborted, the compute phase did not fail, the action phase (if run) succeeded. */
export function txSucceeded(t: TransactionJson): boolean {
  const d = t.description;
  if (d.aborted) return false;
  if (d.compute_ph && !d.compute_ph.skipped && d.compute_ph.success === false) return false;
  if (d.action && d.action.success === false) return false;
  return true;
}

/** Fees by kind; total_fees is what the account paid (forward fees of out messages are in action fees). */
export function feeBreakdown(t: TransactionJson) {
  const d = t.description;
  const n = (s: string | undefined) => (s ? BigInt(s) : 0n);
  return {
    total: BigInt(t.total_fees),
    storage: n(d.storage_ph?.storage_fees_collected),
    gas: d.compute_ph?.skipped ? 0n : n(d.compute_ph?.gas_fees),
    forward: n(d.action?.total_fwd_fees),
    action: n(d.action?.total_action_fees),
    importFee: n(t.in_msg?.import_fee ?? undefined),
  };
}

/** A message's text comment as the indexer decoded it (attacker-written: render with ChainText). */
export function messageComment(m: MessageJson): string | undefined {
  const d = m.message_content?.decoded;
  return d && d.type === 'text_comment' && typeof d.comment === 'string' ? d.comment : undefined;
}
