/**
 * The devnet's multisig v2 (the public interface of TON's multisig-contract-v2): Tolk sources in
 * ./multisig, compiled at run time (tolk.ts). The order contract is compiled first and embedded in the
 * multisig's code (as multisig-contract-v2 embeds its order code), so order addresses follow from
 * (multisig, order_seqno) alone. Opcodes, order TL-B and bodies: lib/ton/multisig.ts.
 *
 * multisig data: next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 *                signers_num:uint8 proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_seqno:Bool
 * order data:    multisig:MsgAddressInt order_seqno:uint256 [threshold:uint8 sent_for_execution:Bool
 *                signers:^Cell approvals_mask:uint256 approvals_num:uint8 expiration_date:uint48 order:^Cell]
 */
import { Address, beginCell, Cell, contractAddress, StateInit } from '@ton/core';
import { addressListDict } from '../../ton/multisig';
import { cachedCompilation, compileTolk, tolkSourceDir } from './tolk';

export interface MultisigCode {
  multisig: Cell;
  order: Cell;
  compileMs: number;
}

/** Compile order.tolk, then multisig.tolk with the order's code embedded (once per process). */
export const compileMultisigContracts = cachedCompilation<MultisigCode>(async () => {
  const dir = tolkSourceDir('multisig', 'multisig.tolk');
  const order = await compileTolk(dir, 'order.tolk');
  const orderBoc = order.toBoc({ idx: false, crc32: false }).toString('hex');
  const size = cellTreeSize(order);
  const orderCode =
    `tolk 1.3\n\n// Generated: the compiled order.tolk and its size (distinct cells and their bits, as CDATASIZE counts).\n` +
    `fun orderCode(): cell\n    asm "B{${orderBoc}} B>boc PUSHREF"\n\nconst ORDER_CODE_CELLS = ${size.cells}\nconst ORDER_CODE_BITS = ${size.bits}\n`;
  return { order, multisig: await compileTolk(dir, 'multisig.tolk', { 'order-code.tolk': orderCode }) };
});

/** Distinct cells of a tree and their data bits (what TVM's CDATASIZE answers, and what fees count). */
function cellTreeSize(root: Cell): { cells: number; bits: number } {
  const seen = new Set<string>();
  let bits = 0;
  const visit = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (seen.has(h)) return;
    seen.add(h);
    bits += c.bits.length;
    c.refs.forEach(visit);
  };
  visit(root);
  return { cells: seen.size, bits };
}

export function multisigInit(
  code: MultisigCode,
  args: { threshold: number; signers: readonly Address[]; proposers: readonly Address[]; allowArbitrarySeqno?: boolean; workchain?: number },
): { address: Address; init: StateInit & { code: Cell; data: Cell } } {
  if (args.signers.length === 0 || args.threshold < 1 || args.threshold > args.signers.length) throw new Error('multisig: 1 ≤ threshold ≤ signers');
  const data = beginCell()
    .storeUint(0, 256)
    .storeUint(args.threshold, 8)
    .storeRef(beginCell().storeDictDirect(addressListDict(args.signers)).endCell())
    .storeUint(args.signers.length, 8)
    .storeDict(addressListDict(args.proposers))
    .storeBit(args.allowArbitrarySeqno ?? false)
    .endCell();
  const init = { code: code.multisig, data };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}

/** The address of order `orderSeqno` of `multisig` (what get_order_address answers). */
export function multisigOrderAddress(code: MultisigCode, multisig: Address, orderSeqno: bigint): Address {
  const data = beginCell().storeAddress(multisig).storeUint(orderSeqno, 256).endCell();
  return contractAddress(0, { code: code.order, data });
}
