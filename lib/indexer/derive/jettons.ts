// TEP-74 jettons in the derive stage: masters (get_jetton_data) and wallets (get_wallet_data) as their
// get-methods answer at the indexed block, and the transfers and burns their wallets received. A row of
// jetton_masters / jetton_wallets is replaced only by a newer state of the account (last_transaction_lt),
// so re-indexing an old range never rolls a balance back.
import { beginCell, type Address } from '@ton/core';
import { Prisma, type PrismaClient } from '../../db/generated/client';
import { OP, readBurn, readTransfer } from '../../actions/protocols/jettons';
import { readComment } from '../../actions/cells';
import { rawUpper } from '../../ton/address';
import { deserializeBoc } from '../../ton';
import { methodId } from '../../ton/contract-methods';
import { readJettonData, readWalletData, type WalletData } from '../../ton/jetton-getters';
import { storedContentJson } from '../../ton/token-content';
import { hex, optHex, type Row, type TableRows } from '../sql';
import { mapConcurrent } from '../concurrent';
import { indexedRequests, receivedRequests, requestHistory, type ReceivedRequest } from './requests';
import { ACCOUNTS_AT_ONCE, declaredBy, newerState, readGetter, Vouching, type DerivedAccount, type DeriveBlock, type Detector, type GetterRun } from './detector';

export const JETTON_MASTER = 'jetton_master';
export const JETTON_WALLET = 'jetton_wallet';

// The get-methods each interface declares (toncenter's detection table, lib/ton/interfaces.ts).
const DECLARES: Record<string, number[]> = {
  [JETTON_MASTER]: ['get_jetton_data', 'get_wallet_address'].map(methodId),
  [JETTON_WALLET]: ['get_wallet_data'].map(methodId),
};

const MASTER_COLUMNS = [
  'address', 'total_supply', 'mintable', 'admin_address', 'jetton_content', 'jetton_content_boc', 'jetton_wallet_code_hash', 'code_hash',
  'data_hash', 'last_transaction_lt',
] as const;
const WALLET_COLUMNS = ['address', 'balance', 'owner', 'jetton', 'last_transaction_lt', 'code_hash', 'data_hash'] as const;
const TRANSFER_COLUMNS = [
  'tx_hash', 'tx_lt', 'tx_now', 'tx_aborted', 'mc_seqno', 'query_id', 'amount', 'source', 'destination', 'jetton_wallet', 'jetton_master',
  'response_destination', 'custom_payload', 'forward_ton_amount', 'forward_payload', 'comment',
] as const;
const BURN_COLUMNS = [
  'tx_hash', 'tx_lt', 'tx_now', 'tx_aborted', 'mc_seqno', 'query_id', 'owner', 'jetton_wallet', 'jetton_master', 'amount',
  'response_destination', 'custom_payload',
] as const;


const raw = (a: Address | null) => (a ? rawUpper(a) : null);

const masterData = (account: DerivedAccount, run: GetterRun) => readGetter(account, run, 'get_jetton_data', readJettonData);
const walletData = (account: DerivedAccount, run: GetterRun): Promise<WalletData | null> => readGetter(account, run, 'get_wallet_data', readWalletData);

// Wallets their master vouched for, as `wallet owner jetton` (none of the three ever changes).
const vouched = new Vouching(200_000);

/**
 * Whether the wallet's master names it as the owner's wallet (get_wallet_address on the master's
 * indexed state): any contract can answer get_wallet_data with a real jetton's master, and without this
 * its made-up balance and transfers would be listed under that jetton.
 */
const vouchedFor = (block: DeriveBlock, wallet: string, d: WalletData): Promise<boolean> =>
  vouched.check(block, `${wallet} ${raw(d.owner)} ${raw(d.jetton)}`, wallet, raw(d.jetton)!, 'get_wallet_address', [
    { type: 'slice', cell: beginCell().storeAddress(d.owner).endCell() },
  ]);

function stateColumns(a: DerivedAccount) {
  return { code_hash: optHex(a.state.codeHash), data_hash: optHex(a.state.dataHash), last_transaction_lt: a.state.lastTransLt.toString() };
}

export const jettonDetector: Detector = {
  name: 'jettons',

  candidates: (methods) => declaredBy(DECLARES, methods),

  async confirm(iface, account, run) {
    if (iface === JETTON_MASTER) return (await masterData(account, run)) !== null;
    if (iface === JETTON_WALLET) return (await walletData(account, run)) !== null;
    return false;
  },

  async derive(block: DeriveBlock): Promise<TableRows[]> {
    const masters: Row[] = [];
    const wallets: Row[] = [];
    const walletsByAddress = new Map<string, WalletData>();
    // Get-methods of several accounts in flight (the TVM pool's workers in parallel); rows in account order.
    const found = await mapConcurrent([...block.accounts.values()], ACCOUNTS_AT_ONCE, async (account) => {
      const master = account.interfaces.includes(JETTON_MASTER) ? await masterData(account, block.run) : null;
      let wallet = account.interfaces.includes(JETTON_WALLET) ? await walletData(account, block.run) : null;
      if (wallet && !(await vouchedFor(block, account.state.account, wallet))) wallet = null;
      return { account, master, wallet };
    });
    for (const { account, master: d, wallet } of found) {
      const address = account.state.account;
      if (d) {
        masters.push({
          address,
          total_supply: d.totalSupply.toString(),
          mintable: d.mintable,
          admin_address: raw(d.admin),
          jetton_content: storedContentJson(d.content),
          jetton_content_boc: hex(d.content.toBoc()),
          jetton_wallet_code_hash: hex(d.walletCode.hash()),
          ...stateColumns(account),
        });
      }
      if (wallet) {
        walletsByAddress.set(address, wallet);
        wallets.push({ address, balance: wallet.balance.toString(), owner: raw(wallet.owner)!, jetton: raw(wallet.jetton)!, ...stateColumns(account) });
      }
    }

    // Transfers and burns: requests a jetton wallet of this block received.
    const requests: WalletRequest[] = receivedRequests(block, (account, msg) => {
      const wallet = walletsByAddress.get(account);
      if (!wallet || (msg.opcode !== OP.transfer && msg.opcode !== OP.burn)) return undefined;
      return { wallet: account, owner: raw(wallet.owner)!, jetton: raw(wallet.jetton)! };
    });
    const { transfers, burns } = jettonEventRows(requests);
    return [
      { table: 'jetton_masters', columns: MASTER_COLUMNS, rows: masters, onConflict: newerState('jetton_masters', MASTER_COLUMNS) },
      { table: 'jetton_wallets', columns: WALLET_COLUMNS, rows: wallets, onConflict: newerState('jetton_wallets', WALLET_COLUMNS) },
      ...eventTables(transfers, burns),
    ];
  },

  history(prisma, afterLt, limit) {
    return requestHistory((lt, n) => walletRequestsAfter(prisma, lt, n), afterLt, limit, (rows) => {
      const { transfers, burns } = jettonEventRows(rows);
      return eventTables(transfers, burns);
    });
  },
};

/** Transfer and burn requests to known jetton wallets among indexed transactions, by lt. */
function walletRequestsAfter(prisma: PrismaClient, ltCondition: Prisma.Sql, limit: number | null): Promise<WalletRequest[]> {
  const q = {
    columns: Prisma.sql`w.owner, w.jetton`,
    receiver: Prisma.sql`JOIN jetton_wallets w ON w.address = m.destination`,
    where: Prisma.sql`m.opcode IN (${OP.transfer}::int, ${OP.burn}::int)`,
    own: (r: { account: string; owner: string; jetton: string }) => ({ wallet: r.account, owner: r.owner, jetton: r.jetton }),
  };
  return indexedRequests(prisma, q, ltCondition, limit);
}

export const eventTables = (transfers: Row[], burns: Row[]): TableRows[] => [
  { table: 'jetton_transfers', columns: TRANSFER_COLUMNS, rows: transfers },
  { table: 'jetton_burns', columns: BURN_COLUMNS, rows: burns },
];

/** A request (transfer or burn, by its body's opcode) a jetton wallet received in a transaction. */
export interface WalletRequest extends ReceivedRequest {
  wallet: string;
  owner: string;
  jetton: string;
}

/** jetton_transfers and jetton_burns rows of wallet requests; a malformed body makes no row (the wallet rejects it too). */
export function jettonEventRows(requests: WalletRequest[]): { transfers: Row[]; burns: Row[] } {
  const transfers: Row[] = [];
  const burns: Row[] = [];
  for (const q of requests) {
    const tx = { tx_hash: hex(q.txHash), tx_lt: q.lt.toString(), tx_now: q.now, tx_aborted: q.aborted, mc_seqno: q.mcSeqno };
    try {
      const body = deserializeBoc(q.body)[0]!.beginParse();
      const op = body.preloadUint(32);
      if (op === OP.transfer) {
        const r = readTransfer(body);
        const { comment, encrypted } = readComment(r.forwardPayload?.beginParse() ?? null);
        transfers.push({
          ...tx,
          query_id: r.queryId.toString(),
          amount: r.amount.toString(),
          source: q.owner,
          destination: r.destination,
          jetton_wallet: q.wallet,
          jetton_master: q.jetton,
          response_destination: r.response,
          custom_payload: r.customPayload ? hex(r.customPayload.toBoc()) : null,
          forward_ton_amount: r.forwardAmount.toString(),
          forward_payload: r.forwardPayload ? hex(r.forwardPayload.toBoc()) : null,
          comment: encrypted ? null : comment,
        });
      } else if (op === OP.burn) {
        const r = readBurn(body);
        burns.push({
          ...tx,
          query_id: r.queryId.toString(),
          owner: q.owner,
          jetton_wallet: q.wallet,
          jetton_master: q.jetton,
          amount: r.amount.toString(),
          response_destination: r.response,
          custom_payload: r.customPayload ? hex(r.customPayload.toBoc()) : null,
        });
      }
    } catch {
      // not a well-formed request
    }
  }
  return { transfers, burns };
}
