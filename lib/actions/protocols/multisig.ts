// Multisig v2 (TON's multisig-contract-v2; opcodes and TL-B in lib/ton/multisig.ts): a signer or proposer
// asks the multisig for a new order (new_order → the order's init), a signer approves an order (approve
// by index, or the text comment "approve" whose index is the sender's place among the order's signers,
// answered approve_accepted / approve_rejected), and at the
// threshold the order sends the multisig its execute. Each is one action of its own nodes: the messages
// an executed order sends stay their own actions (TON and jetton transfers), as do an approval's execute.
import { COMMENT_OP } from '../cells';
import { readApproveAnswer, readApproveBody, readExecuteBody, readNewOrderBody, readOrderInitBody, MULTISIG_OP } from '../../ton/multisig';
import type { Node } from '../tree';
import type { Matcher } from './matcher';

const answerOf = (node: Node): Node | undefined =>
  node.child((n) => n.kind !== 'log' && (n.opcode === MULTISIG_OP.approveAccepted || n.opcode === MULTISIG_OP.approveRejected));

const createOrder: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== MULTISIG_OP.newOrder || !node.cell) return;
  const b = readNewOrderBody(node.cell);
  if (!b) return;
  const init = node.child(MULTISIG_OP.init);
  const initBody = init?.cell ? readOrderInitBody(init.cell) : null;
  ctx.claim('multisig_create_order', init ? [node, init] : [node], {
    source: node.source,
    destination: node.destination,
    destination_secondary: init?.destination ?? null,
    multisig_create_order_data: {
      query_id: b.queryId,
      // The multisig assigns its next seqno to MULTISIG_NEXT_SEQNO; the order's address names the one used.
      order_seqno: b.orderSeqno,
      is_created_by_signer: b.isSigner,
      is_signed_by_creator: initBody ? initBody.approveOnInit : b.isSigner,
      creator_index: b.index,
      expiration_date: b.expirationDate,
      order_boc: b.order.toBoc().toString('base64'),
    },
  }, node.failed || !init || init.failed);
};

const approve: Matcher = (node, ctx) => {
  // The opcode first: node.cell parses the whole body (every cell hashed), which most nodes never need.
  if (!node.free || (node.opcode !== MULTISIG_OP.approve && node.opcode !== COMMENT_OP) || !node.cell) return;
  let signerIndex: number | null;
  if (node.opcode === MULTISIG_OP.approve) {
    const b = readApproveBody(node.cell);
    if (!b) return;
    signerIndex = b.signerIndex;
  } else if (node.opcode === COMMENT_OP) {
    // An "approve" comment is an approval only where an order answers it.
    if (!answerOf(node)) return;
    const s = node.bodyAfterOp();
    if (s.remainingRefs !== 0 || s.remainingBits !== 7 * 8 || s.loadBuffer(7).toString('latin1') !== 'approve') return;
    // The order finds the signer by address, so does Atlas: the sender's place in the order's signers
    // (the derive stage's row); null when the index does not know the order or the sender signs nothing.
    const signers = ctx.info(node.destination).multisigOrder?.signers ?? [];
    const at = node.source ? signers.indexOf(node.source) : -1;
    signerIndex = at >= 0 ? at : null;
  } else return;
  const answer = answerOf(node);
  const answerCode = answer?.cell ? readApproveAnswer(answer.cell) : null;
  const exitCode = answerCode ?? node.tx.computeExitCode ?? null;
  ctx.claim('multisig_approve', answer ? [node, answer] : [node], {
    source: node.source,
    destination: node.destination,
    multisig_approve_data: { signer_index: signerIndex, exit_code: exitCode },
  }, node.failed || (exitCode !== null && exitCode !== 0));
};

const execute: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== MULTISIG_OP.execute || !node.cell) return;
  const b = readExecuteBody(node.cell);
  if (!b) return;
  ctx.claim('multisig_execute', [node], {
    source: node.source,
    destination: node.destination,
    multisig_execute_data: {
      query_id: b.queryId,
      order_seqno: b.orderSeqno,
      expiration_date: b.expirationDate,
      approvals_num: b.approvalsNum,
      signers_hash: b.signersHash.toString('base64'),
      order_boc: b.order.toBoc().toString('base64'),
    },
  }, node.failed);
};

export const multisigMatchers = { createOrder, approve, execute };
