// A transaction in one line, from its account's side: who paid whom, how much, with what comment, and
// why it failed. Lists (TxTable), the transaction page's headline and the trace tree all read it here.
import type { MessageJson } from '@/lib/api/v3/models/messages';
import type { TransactionJson } from '@/lib/api/v3/models/transactions';
import { explainActionResult, explainComputeExit, explainSkipReason } from './exit-codes';
import { opcodeName } from './opcodes';
import { messageComment, txSucceeded } from './tx';

export type TxSummary =
  /** An external message made the account send: value to the first recipient (and `others` more). */
  | { kind: 'sent'; to: string; others: number; value: bigint; comment?: string; operation?: string }
  /** An external message made the account ask its jetton wallet (`wallet`) to send `amount` jettons to `to`. */
  | { kind: 'sent_jetton'; to: string; wallet: string; amount: bigint; comment?: string }
  /** A jetton wallet (`wallet`) told the account it received `amount` jettons from `from`. */
  | { kind: 'received_jetton'; from: string; wallet: string; amount: bigint; comment?: string }
  /** An internal message brought value from `from`. */
  | { kind: 'received'; from: string; value: bigint; comment?: string; operation?: string }
  /** A message the account sent earlier came back from `from` (bounced). */
  | { kind: 'returned'; from: string; value: bigint }
  /** An external message that sent nothing (a deploy, a state change, a failed attempt). */
  | { kind: 'external' }
  /** Tick-tock and other transactions without an inbound message. */
  | { kind: 'system'; what: string };

export interface TxLine {
  summary: TxSummary;
  /** in: value came to the account; out: the account sent it. */
  direction: 'in' | 'out' | null;
  /** Why the transaction failed, in words; undefined when it succeeded. */
  failure?: string;
  /** The inbound value went back to its sender in a bounce message. */
  bouncedBack: boolean;
}

/** The jetton wallet a jetton line counts in (its metadata names the jetton); undefined for other lines. */
export const lineJettonWallet = (line: TxLine): string | undefined =>
  line.summary.kind === 'sent_jetton' || line.summary.kind === 'received_jetton' ? line.summary.wallet : undefined;

/** Why a transaction failed, in words (compute exit code by the account's interfaces, action phase, abort). */
export function failureReason(t: TransactionJson, interfaces: readonly string[]): string | undefined {
  if (txSucceeded(t)) return undefined;
  const d = t.description;
  const c = d.compute_ph;
  if (c && !c.skipped && c.success === false && c.exit_code !== undefined) return `exit code ${c.exit_code}: ${explainComputeExit(c.exit_code, interfaces)}`;
  if (c?.skipped && c.reason === 'no_state' && t.orig_status === 'nonexist') return 'the destination does not exist';
  if (c?.skipped && c.reason === 'no_state' && t.orig_status === 'uninit') return 'the destination is not deployed (no code yet)';
  if (c?.skipped) return `not executed: ${explainSkipReason(c.reason ?? '')}`;
  if (d.action && d.action.success === false && d.action.result_code !== undefined) return `action phase ${d.action.result_code}: ${explainActionResult(d.action.result_code)}`;
  return 'aborted';
}

/** What a message asks for beyond moving value: its decoded operation, else a known opcode's name. */
export function messageOperation(m: MessageJson): string | undefined {
  if (m.bounced) return 'bounce';
  if (messageComment(m) !== undefined) return undefined;
  if (m.decoded_opcode) return m.decoded_opcode.replace(/_/g, ' ');
  if (m.opcode && m.opcode !== '0x00000000') return opcodeName(m.opcode) ?? `op ${m.opcode}`;
  return undefined;
}

/** What the inbound message asked for: its operation, else what kind of message it is. */
export function inboundOperation(t: TransactionJson): string {
  const m = t.in_msg;
  if (!m) return t.description.type === 'tick_tock' ? 'tick-tock' : 'no message';
  return messageOperation(m) ?? (m.source ? 'transfer' : 'external message');
}

const nano = (v: string | null | undefined) => (v ? BigInt(v) : 0n);

/** A jetton body's amount, counterparty field and forwarded comment, when the message carries one of `type`. */
function jettonBody(m: MessageJson, type: 'jetton_transfer' | 'jetton_notify', party: 'destination' | 'sender') {
  const d = m.message_content?.decoded;
  if (!d || d['@type'] !== type || typeof d.amount !== 'string' || !/^\d+$/.test(d.amount) || typeof d[party] !== 'string') return undefined;
  const payload = d.forward_payload as { '@type'?: string; text?: unknown } | null | undefined;
  const comment = payload?.['@type'] === 'text_comment' && typeof payload.text === 'string' ? payload.text : undefined;
  return { amount: BigInt(d.amount), party: d[party] as string, comment };
}

export function summarizeTx(t: TransactionJson, interfaces: readonly string[] = []): TxLine {
  const failure = failureReason(t, interfaces);
  const m = t.in_msg;
  const bouncedBack = !!m?.source && t.out_msgs.some((o) => o.bounced && o.destination === m.source);
  const line = (summary: TxSummary, direction: TxLine['direction']): TxLine => ({ summary, direction, failure, bouncedBack });
  if (!m) return line({ kind: 'system', what: t.description.type === 'tick_tock' ? 'tick-tock' : (t.description.type ?? 'system').replace(/_/g, ' ') }, null);
  if (m.source === null) {
    const sent = t.out_msgs.filter((o) => o.destination !== null);
    if (!sent.length) return line({ kind: 'external' }, null);
    const first = sent[0]!;
    const jetton = sent.length === 1 ? jettonBody(first, 'jetton_transfer', 'destination') : undefined;
    if (jetton) return line({ kind: 'sent_jetton', to: jetton.party, wallet: first.destination!, amount: jetton.amount, comment: jetton.comment }, 'out');
    const value = sent.reduce((s, o) => s + nano(o.value), 0n);
    return line({ kind: 'sent', to: first.destination!, others: new Set(sent.map((o) => o.destination)).size - 1, value, comment: messageComment(first), operation: messageOperation(first) }, 'out');
  }
  if (m.bounced) return line({ kind: 'returned', from: m.source, value: nano(m.value) }, 'in');
  const jetton = jettonBody(m, 'jetton_notify', 'sender');
  if (jetton) return line({ kind: 'received_jetton', from: jetton.party, wallet: m.source, amount: jetton.amount, comment: jetton.comment }, 'in');
  return line({ kind: 'received', from: m.source, value: nano(m.value), comment: messageComment(m), operation: messageOperation(m) }, 'in');
}

/**
 * The line as plain words (titles, alt text, tests): `name` turns a raw address into what a reader sees,
 * `ton` an amount of nanotons, `jettons` an amount of the jettons of a wallet.
 */
export function summaryText(
  t: TransactionJson,
  line: TxLine,
  name: (raw: string) => string,
  ton: (v: bigint) => string,
  jettons: (v: bigint, wallet: string) => string = (v) => `${v} jetton units`,
): string {
  const me = name(t.account);
  const s = line.summary;
  const note = (comment?: string, operation?: string) => (comment !== undefined ? `: “${comment}”` : operation ? ` (${operation})` : '');
  let text: string;
  switch (s.kind) {
    case 'sent':
      text = `${me} sent ${ton(s.value)} to ${name(s.to)}${s.others ? ` and ${s.others} more` : ''}${note(s.comment, s.operation)}`;
      break;
    case 'received':
      text = `${name(s.from)} sent ${ton(s.value)} to ${me}${note(s.comment, s.operation)}`;
      break;
    case 'sent_jetton':
      text = `${me} sent ${jettons(s.amount, s.wallet)} to ${name(s.to)}${note(s.comment)}`;
      break;
    case 'received_jetton':
      text = `${name(s.from)} sent ${jettons(s.amount, s.wallet)} to ${me}${note(s.comment)}`;
      break;
    case 'returned':
      text = `${ton(s.value)} came back to ${me} from ${name(s.from)} (bounced)`;
      break;
    case 'external':
      text = `${me} ran an external message`;
      break;
    case 'system':
      text = `${me}: ${s.what}`;
      break;
  }
  if (line.failure) text += ` — failed, ${line.failure}`;
  if (line.bouncedBack) text += '; the value bounced back to the sender';
  return text;
}
