// Multisig v2 wallets and orders (TON's multisig-contract-v2 interface) in the derive stage: a wallet as
// get_multisig_data answers at the indexed block, an order as get_order_data answers (once the wallet
// has initialised it) — and only when the wallet it names vouches for it: get_order_address of that
// wallet (on its indexed state) must answer the order's own address for its seqno, so a contract that
// merely claims a wallet in its get_order_data cannot join that wallet's orders. Like vesting.ts, a row
// is replaced only by a newer state of the account.
import type { Address } from '@ton/core';
import { rawUpper } from '../../ton/address';
import { methodId } from '../../ton/contract-methods';
import { MULTISIG_ORDER_V2, MULTISIG_V2, readMultisigData, readOrderData, type MultisigData, type MultisigOrderData } from '../../ton/multisig';
import { hex, optHex, type Row, type TableRows } from '../sql';
import { declaredBy, newerState, readGetter, Vouching, type DerivedAccount, type DeriveBlock, type Detector, type GetterRun } from './detector';


const DECLARES: Record<string, number[]> = {
  [MULTISIG_V2]: ['get_multisig_data', 'get_order_address'].map(methodId),
  [MULTISIG_ORDER_V2]: ['get_order_data'].map(methodId),
};

const WALLET_COLUMNS = ['address', 'next_order_seqno', 'threshold', 'signers', 'proposers', 'code_hash', 'data_hash', 'last_transaction_lt'] as const;
const ORDER_COLUMNS = [
  'address', 'multisig_address', 'order_seqno', 'threshold', 'sent_for_execution', 'approvals_mask', 'approvals_num', 'expiration_date', 'order_boc',
  'signers', 'code_hash', 'data_hash', 'last_transaction_lt',
] as const;

const WALLET_NEWER = newerState('multisig_wallets', WALLET_COLUMNS);
const ORDER_NEWER = newerState('multisig_orders', ORDER_COLUMNS);

const raws = (list: Address[]) => list.map((a) => rawUpper(a));

const multisigData = (account: DerivedAccount, run: GetterRun): Promise<MultisigData | null> => readGetter(account, run, 'get_multisig_data', readMultisigData);
const orderData = (account: DerivedAccount, run: GetterRun): Promise<MultisigOrderData | null> => readGetter(account, run, 'get_order_data', readOrderData);

// Orders their wallet vouched for, as `order wallet seqno` (none of the three changes once initialised).
const vouched = new Vouching(100_000);

const vouchedFor = (block: DeriveBlock, order: string, o: MultisigOrderData): Promise<boolean> => {
  const wallet = rawUpper(o.multisig);
  return vouched.check(block, `${order} ${wallet} ${o.orderSeqno}`, order, wallet, 'get_order_address', [{ type: 'int', value: o.orderSeqno }]);
};

const accountColumns = (account: DerivedAccount) => ({
  code_hash: optHex(account.state.codeHash),
  data_hash: optHex(account.state.dataHash),
  last_transaction_lt: account.state.lastTransLt.toString(),
});

export const multisigDetector: Detector = {
  name: 'multisig',

  candidates: (methods) => declaredBy(DECLARES, methods),

  async confirm(iface, account, run) {
    if (iface === MULTISIG_V2) return (await multisigData(account, run)) !== null;
    if (iface === MULTISIG_ORDER_V2) return (await orderData(account, run)) !== null;
    return false;
  },

  async derive(block: DeriveBlock): Promise<TableRows[]> {
    const wallets: Row[] = [];
    const orders: Row[] = [];
    for (const account of block.accounts.values()) {
      const address = account.state.account;
      if (account.interfaces.includes(MULTISIG_V2)) {
        const d = await multisigData(account, block.run);
        if (d) {
          wallets.push({
            address,
            next_order_seqno: d.nextOrderSeqno.toString(),
            threshold: d.threshold,
            signers: raws(d.signers),
            proposers: raws(d.proposers),
            ...accountColumns(account),
          });
        }
      }
      if (account.interfaces.includes(MULTISIG_ORDER_V2)) {
        const o = await orderData(account, block.run);
        // An order the wallet has not initialised yet has nothing to list.
        if (o && o.threshold !== null && o.order && (await vouchedFor(block, address, o))) {
          orders.push({
            address,
            multisig_address: rawUpper(o.multisig),
            order_seqno: o.orderSeqno.toString(),
            threshold: o.threshold,
            sent_for_execution: o.sentForExecution ?? false,
            approvals_mask: (o.approvalsMask ?? 0n).toString(),
            approvals_num: o.approvalsNum ?? 0,
            expiration_date: String(o.expirationDate ?? 0),
            order_boc: hex(o.order.toBoc()),
            signers: raws(o.signers),
            ...accountColumns(account),
          });
        }
      }
    }
    // Rows get their ids (the routes' order) in insertion order: within a block, by address and seqno.
    wallets.sort((a, b) => String(a.address).localeCompare(String(b.address)));
    const seqno = (r: Row) => BigInt(String(r.order_seqno));
    orders.sort((a, b) => String(a.multisig_address).localeCompare(String(b.multisig_address)) || (seqno(a) < seqno(b) ? -1 : seqno(a) > seqno(b) ? 1 : 0));
    return [
      { table: 'multisig_wallets', columns: WALLET_COLUMNS, rows: wallets, onConflict: WALLET_NEWER },
      { table: 'multisig_orders', columns: ORDER_COLUMNS, rows: orders, onConflict: ORDER_NEWER },
    ];
  },
};
