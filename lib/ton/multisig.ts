// Multisig v2 (the public interface of TON's multisig-contract-v2): opcodes, the TL-B of orders and
// their actions, message bodies and the get-method answers. The devnet's contract (lib/devnet/contracts/
// multisig), the derive stage, the v3 routes and the action classifier all read and write them here.
//
//   new_order#f718510f query_id:uint64 order_seqno:uint256 signer:Bool index:uint8 expiration_date:uint48 order:^Order
//   execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order
//   execute_internal#a32c59bf query_id:uint64 order:^Order
//   init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) expiration_date:uint48
//                 order:^Order approve_on_init:Bool signer_index:approve_on_init?uint8
//   approve#a762230f query_id:uint64 signer_index:uint8   (or the text comment "approve")
//   approve_accepted#82609bf6 query_id:uint64 · approve_rejected#afaf283e query_id:uint64 exit_code:uint32
//   Order: Hashmap 8 ^Action
//   send_message#f1381e5b mode:uint8 message:^(MessageRelaxed Any) = Action
//   update_multisig_params#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) proposers:(HashmapE 8 MsgAddressInt) = Action
import { Address, beginCell, Cell, Dictionary, loadMessageRelaxed, type MessageRelaxed, storeMessageRelaxed, type TupleItem } from '@ton/core';
import { stackAddress, stackCell, stackInt } from './jetton-getters';
import { MULTISIG_ACTION_OP, MULTISIG_OP } from './multisig-codes';

export { approvedIndexes, MULTISIG_ACTION_OP, MULTISIG_EXIT, MULTISIG_OP, MULTISIG_ORDER_V2, MULTISIG_V2 } from './multisig-codes';

/** The order seqno that asks the multisig for its next one. */
export const MULTISIG_NEXT_SEQNO = (1n << 256n) - 1n;

export type MultisigAction =
  | { type: 'transfer'; sendMode: number; message: MessageRelaxed }
  | { type: 'update'; threshold: number; signers: Address[]; proposers: Address[] };

/** An order action as stored: a message (with its raw cell) or a parameter update. */
export type ParsedMultisigAction =
  | { type: 'transfer'; sendMode: number; message: MessageRelaxed; messageCell: Cell }
  | { type: 'update'; threshold: number; signers: Address[]; proposers: Address[] }
  | { type: 'unknown'; opcode: number | null; cell: Cell };

const addressListValue = Dictionary.Values.Address();

/** Hashmap 8 MsgAddressInt of `list` (index = position). */
export function addressListDict(list: readonly Address[]): Dictionary<number, Address> {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), addressListValue);
  list.forEach((a, i) => dict.set(i, a));
  return dict;
}

/** The addresses of a Hashmap 8 MsgAddressInt root (null: none), in index order. */
export function readAddressList(root: Cell | null): Address[] {
  if (!root) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), addressListValue, root);
  return dict.keys().sort((a, b) => a - b).map((k) => dict.get(k)!);
}

function actionCell(action: MultisigAction): Cell {
  if (action.type === 'transfer') {
    return beginCell()
      .storeUint(MULTISIG_ACTION_OP.sendMessage, 32)
      .storeUint(action.sendMode, 8)
      .storeRef(beginCell().store(storeMessageRelaxed(action.message)).endCell())
      .endCell();
  }
  return beginCell()
    .storeUint(MULTISIG_ACTION_OP.updateParams, 32)
    .storeUint(action.threshold, 8)
    .storeRef(beginCell().storeDictDirect(addressListDict(action.signers)).endCell())
    .storeDict(addressListDict(action.proposers))
    .endCell();
}

/** The order cell (Hashmap 8 ^Action) of at most 255 actions. */
export function packMultisigOrder(actions: readonly MultisigAction[]): Cell {
  if (actions.length === 0 || actions.length > 255) throw new Error('an order holds 1 to 255 actions');
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  actions.forEach((a, i) => dict.set(i, actionCell(a)));
  return beginCell().storeDictDirect(dict).endCell();
}

/** The actions of an order cell, in index order; an action that does not parse is `unknown`. */
export function parseMultisigOrder(order: Cell): ParsedMultisigAction[] {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), order);
  return dict
    .keys()
    .sort((a, b) => a - b)
    .map((k) => parseAction(dict.get(k)!));
}

function parseAction(cell: Cell): ParsedMultisigAction {
  const s = cell.beginParse();
  const opcode = s.remainingBits >= 32 ? s.loadUint(32) : null;
  try {
    if (opcode === MULTISIG_ACTION_OP.sendMessage) {
      const sendMode = s.loadUint(8);
      const messageCell = s.loadRef();
      return { type: 'transfer', sendMode, message: loadMessageRelaxed(messageCell.beginParse()), messageCell };
    }
    if (opcode === MULTISIG_ACTION_OP.updateParams) {
      const threshold = s.loadUint(8);
      const signers = readAddressList(s.loadRef());
      const proposers = readAddressList(s.loadMaybeRef());
      return { type: 'update', threshold, signers, proposers };
    }
  } catch {
    // falls through: kept as an unknown action
  }
  return { type: 'unknown', opcode, cell };
}

export interface NewOrderBody {
  queryId: bigint;
  orderSeqno: bigint;
  isSigner: boolean;
  index: number;
  expirationDate: number;
  order: Cell;
}

/** signer or proposer → multisig: create order `orderSeqno` (MULTISIG_NEXT_SEQNO: the next one). */
export function multisigNewOrderBody(b: NewOrderBody): Cell {
  return beginCell()
    .storeUint(MULTISIG_OP.newOrder, 32)
    .storeUint(b.queryId, 64)
    .storeUint(b.orderSeqno, 256)
    .storeBit(b.isSigner)
    .storeUint(b.index, 8)
    .storeUint(b.expirationDate, 48)
    .storeRef(b.order)
    .endCell();
}

export function readNewOrderBody(body: Cell): NewOrderBody | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== MULTISIG_OP.newOrder) return null;
  try {
    return { queryId: s.loadUintBig(64), orderSeqno: s.loadUintBig(256), isSigner: s.loadBit(), index: s.loadUint(8), expirationDate: s.loadUint(48), order: s.loadRef() };
  } catch {
    return null;
  }
}

export interface ExecuteBody {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
  order: Cell;
}

export function readExecuteBody(body: Cell): ExecuteBody | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== MULTISIG_OP.execute) return null;
  try {
    return {
      queryId: s.loadUintBig(64),
      orderSeqno: s.loadUintBig(256),
      expirationDate: s.loadUint(48),
      approvalsNum: s.loadUint(8),
      signersHash: s.loadBuffer(32),
      order: s.loadRef(),
    };
  } catch {
    return null;
  }
}

/** The init the multisig sends a new order: whether its creator approved it, and as which signer. */
export function readOrderInitBody(body: Cell): { queryId: bigint; approveOnInit: boolean; signerIndex: number | null } | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== MULTISIG_OP.init) return null;
  try {
    const queryId = s.loadUintBig(64);
    s.skip(8);
    s.loadRef();
    s.skip(48);
    s.loadRef();
    const approveOnInit = s.loadBit();
    return { queryId, approveOnInit, signerIndex: approveOnInit ? s.loadUint(8) : null };
  } catch {
    return null;
  }
}

/** signer → order: approve as signer `signerIndex`. */
export function multisigApproveBody(signerIndex: number, queryId = 0n): Cell {
  return beginCell().storeUint(MULTISIG_OP.approve, 32).storeUint(queryId, 64).storeUint(signerIndex, 8).endCell();
}

export function readApproveBody(body: Cell): { queryId: bigint; signerIndex: number } | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== MULTISIG_OP.approve) return null;
  try {
    return { queryId: s.loadUintBig(64), signerIndex: s.loadUint(8) };
  } catch {
    return null;
  }
}

/** The exit code of an order's answer to an approval: 0 accepted, the reason when rejected, null otherwise. */
export function readApproveAnswer(body: Cell): number | null {
  const s = body.beginParse();
  if (s.remainingBits < 32) return null;
  const op = s.loadUint(32);
  if (op === MULTISIG_OP.approveAccepted) return 0;
  if (op !== MULTISIG_OP.approveRejected || s.remainingBits < 64 + 32) return null;
  s.skip(64);
  return s.loadUint(32);
}

export interface MultisigData {
  /** -1 when the multisig accepts any seqno. */
  nextOrderSeqno: bigint;
  threshold: number;
  signers: Address[];
  proposers: Address[];
}

/** get_multisig_data: (next_order_seqno, threshold, signers, proposers). Throws when it is not one. */
export function readMultisigData(s: TupleItem[]): MultisigData {
  return {
    nextOrderSeqno: stackInt(s[0]),
    threshold: Number(stackInt(s[1])),
    signers: readAddressList(stackCell(s[2])),
    proposers: readAddressList(s[3]?.type === 'null' ? null : stackCell(s[3])),
  };
}

export interface MultisigOrderData {
  multisig: Address;
  orderSeqno: bigint;
  /** Null until the multisig's init arrived. */
  threshold: number | null;
  sentForExecution: boolean | null;
  signers: Address[];
  signersCell: Cell | null;
  approvalsMask: bigint | null;
  approvalsNum: number | null;
  expirationDate: number | null;
  order: Cell | null;
}

const maybeInt = (item: TupleItem | undefined): bigint | null => (item?.type === 'null' ? null : stackInt(item));
const maybeCell = (item: TupleItem | undefined): Cell | null => (item?.type === 'null' ? null : stackCell(item));

/** get_order_data: (multisig, order_seqno, threshold, sent_for_execution, signers, approvals_mask, approvals_num, expiration_date, order). */
export function readOrderData(s: TupleItem[]): MultisigOrderData {
  const multisig = stackAddress(s[0]);
  if (!multisig) throw new Error('order without a multisig');
  const threshold = maybeInt(s[2]);
  const sent = maybeInt(s[3]);
  const signersCell = maybeCell(s[4]);
  const approvalsNum = maybeInt(s[6]);
  const expiration = maybeInt(s[7]);
  return {
    multisig,
    orderSeqno: stackInt(s[1]),
    threshold: threshold === null ? null : Number(threshold),
    sentForExecution: sent === null ? null : sent !== 0n,
    signers: readAddressList(signersCell),
    signersCell,
    approvalsMask: maybeInt(s[5]),
    approvalsNum: approvalsNum === null ? null : Number(approvalsNum),
    expirationDate: expiration === null ? null : Number(expiration),
    order: maybeCell(s[8]),
  };
}
