/**
 * How the genesis scenario and the traffic generator reach the chain. The block producer implements
 * ChainDriver so that it sees (and seals) every transaction; tests use {@link sandboxDriver}.
 */
import type { Blockchain, BlockchainTransaction } from '@ton/sandbox';
import { CellType, Dictionary, type Address, type Cell, type Message } from '@ton/core';
import { createShardAccount } from '@ton/sandbox';

export interface ChainDriver {
  /** The sandbox chain: read state, run get-methods, read `now`. Do not send through it directly. */
  readonly blockchain: Blockchain;
  /** Deliver one external-in message (a signed wallet message, with state init when deploying) and run the
   *  whole internal cascade it causes. Throws like the sandbox does when the external is rejected. */
  sendExternal(message: Message): Promise<void>;
  /** Create an account in the zero state (genesis only): code, data, balance.
   *
   *  Optional `lastPaid` (added for the frozen-account case): the unix time the account last paid storage
   *  fees. The default is "now" (nothing owed). A time far in the past makes the account owe storage fees
   *  for the whole interval at its first transaction; the scenario uses this for one account with a 0 balance
   *  so that its first transaction freezes it. An implementation that ignores the field leaves that account
   *  active (the scenario still runs). The account's storage `used` cells/bits must then be the real ones
   *  (see {@link storageUsedOf}), since the fee is computed from them. */
  setGenesisAccount(address: Address, init: { code: Cell; data: Cell; balance: bigint; lastPaid?: number }): Promise<void>;
}

/** Cells and bits of an account's code + data, counting each distinct cell once (storage stat "used"). */
export function storageUsedOf(code: Cell, data: Cell): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let cells = 0n;
  let bits = 0n;
  const visit = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (seen.has(h)) return;
    seen.add(h);
    cells += 1n;
    bits += BigInt(c.bits.length);
    for (const r of c.refs) visit(r);
  };
  visit(code);
  visit(data);
  return { cells, bits };
}

/** The chain time the scenario signs messages with: the sandbox's `now`, else the wall clock. */
export function chainNow(blockchain: Blockchain): number {
  return blockchain.now ?? Math.floor(Date.now() / 1000);
}

/** A driver straight onto the sandbox (tests). It keeps every transaction it produced in `transactions`. */
export function sandboxDriver(blockchain: Blockchain): ChainDriver & { readonly transactions: BlockchainTransaction[] } {
  const transactions: BlockchainTransaction[] = [];
  return {
    blockchain,
    transactions,
    async sendExternal(message: Message) {
      const result = await blockchain.sendMessage(message);
      transactions.push(...result.transactions);
    },
    async setGenesisAccount(address, init) {
      const account = createShardAccount({ address, code: init.code, data: init.data, balance: init.balance });
      if (account.account) {
        account.account.storageStats.used = storageUsedOf(init.code, init.data);
        account.account.storageStats.lastPaid = init.lastPaid ?? chainNow(blockchain);
      }
      await blockchain.setShardAccount(address, account);
    },
  };
}

/**
 * Whether the chain can run `code`: an ordinary cell always; a library cell (@ton/ton ships v5beta's code
 * only as a reference to the masterchain library of that hash) only when the chain's `libs` hold it.
 */
export function canRunCode(driver: ChainDriver, code: Cell): boolean {
  if (code.type !== CellType.Library) return true;
  const libs = driver.blockchain.libs;
  if (!libs) return false;
  const hash = code.beginParse(true).skip(8).loadBuffer(32);
  const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), libs);
  return dict.has(hash);
}
