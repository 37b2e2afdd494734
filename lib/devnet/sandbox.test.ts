import { Address, Cell, beginCell, loadShardAccount, storeShardAccount, toNano } from '@ton/core';
import { Blockchain, Executor, createShardAccount, type PrevBlocksInfo } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { rawShardAccountFromCell, shardAccountCell } from './accounts';
import { DevnetBlockchain, encodePrevBlocksInfo, lazyShardAccount } from './sandbox';
import { makeWallet, signedTransfer } from '../testing/devnet';

const blockId = (seqno: number) => ({ workchain: -1, shard: 0x8000000000000000n, seqno, rootHash: Buffer.alloc(32, seqno), fileHash: Buffer.alloc(32, seqno + 1) });
const prevBlocks: PrevBlocksInfo = { lastMcBlocks: [3, 2, 1].map(blockId), prevKeyBlock: blockId(1) };

describe('encodePrevBlocksInfo', () => {
  it('encodes PREVBLOCKS exactly as the sandbox executor does', async () => {
    const executor = await Executor.create();
    let seen: string | undefined;
    const internals = executor as unknown as { runCommon(args: (string | number)[]): unknown };
    const original = internals.runCommon.bind(executor);
    internals.runCommon = (args) => {
      seen = (JSON.parse(String(args[4])) as { prev_blocks_info?: string }).prev_blocks_info;
      return original(args);
    };
    const bc = await Blockchain.create({ executor });
    bc.verbosity = { ...bc.verbosity, print: false };
    bc.prevBlocks = prevBlocks;
    const w = makeWallet('prevblocks', 'v4');
    await bc.setShardAccount(w.address, createShardAccount({ address: w.address, code: w.contract.init.code, data: w.contract.init.data, balance: toNano(5) }));
    await bc.sendMessage(await signedTransfer(w, [{ to: w.address, value: 1n }]));
    expect(seen).toBe(encodePrevBlocksInfo(prevBlocks));
  });
});

describe('DevnetBlockchain', () => {
  it('executes exactly like the stock sandbox (same transaction and get-method results), through its fast path', async () => {
    const wallet = makeWallet('sandbox-test', 'v4');
    const sa = createShardAccount({ address: wallet.address, code: wallet.contract.init.code, data: wallet.contract.init.data, balance: toNano(100) });
    const stock = await Blockchain.create();
    const raw = rawShardAccountFromCell(beginCell().store(storeShardAccount(sa)).endCell());
    const devnet = await DevnetBlockchain.createDevnet((a) => (a.equals(wallet.address) ? raw : undefined));
    stock.verbosity = { ...stock.verbosity, print: false };
    await stock.setShardAccount(wallet.address, sa);
    for (const bc of [stock, devnet]) {
      bc.now = 1_750_000_000;
      bc.random = Buffer.alloc(32, 9);
    }
    stock.prevBlocks = prevBlocks;
    devnet.capturing.setPrevBlocks(prevBlocks);
    devnet.setLt(0n);
    const msg = await signedTransfer(wallet, [{ to: new Address(0, Buffer.alloc(32, 1)), value: toNano(1), body: 'same' }]);
    const a = await stock.sendMessage(msg);
    const b = await devnet.sendMessage(msg);
    // The wallet's transaction is the same cell; the receiver differs on purpose: the stock storage
    // invents an uninit account for a new address, the devnet's is account_none (orig_status nonexist).
    expect(b.transactions[0].raw.hash().equals(a.transactions[0].raw.hash())).toBe(true);
    expect(a.transactions[1].oldStatus).toBe('uninitialized');
    expect(b.transactions[1].oldStatus).toBe('non-existing');
    const ga = await stock.runGetMethod(wallet.address, 'seqno');
    const gb = await devnet.runGetMethod(wallet.address, 'seqno');
    expect(gb.stackReader.readNumber()).toBe(ga.stackReader.readNumber());
    // an address the chain does not know is account_none (not the stock storage's uninit account)
    expect((await devnet.getContract(new Address(0, Buffer.alloc(32, 2)))).account.account).toBeUndefined();
    expect((await devnet.heldAccount(wallet.address)).lastTransLt).toBe(a.transactions[0].lt);
  });
});

/** A decoded value with cells as their hashes and addresses as strings (cells from different BoCs differ only in their bit buffers). */
function plain(v: unknown): unknown {
  if (v instanceof Cell) return v.hash().toString('hex');
  if (Address.isAddress(v)) return v.toRawString();
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}

describe('DevnetContract', () => {
  it('holds the account after a transaction undecoded until more than its address is read', async () => {
    const address = new Address(0, Buffer.alloc(32, 7));
    const lazy = lazyShardAccount(address, true, 'not a BoC');
    expect(lazy.account!.addr.equals(address)).toBe(true);
    expect(() => lazy.lastTransactionLt).toThrow();
    expect(() => lazy.account!.storage).toThrow();
    expect(lazyShardAccount(address, false, 'not a BoC').account).toBeUndefined();
  });

  it('reads and writes through to the account the stock getter decodes', async () => {
    const wallet = makeWallet('devnet-contract', 'v4');
    const sa = createShardAccount({ address: wallet.address, code: wallet.contract.init.code, data: wallet.contract.init.data, balance: toNano(100) });
    const raw = rawShardAccountFromCell(beginCell().store(storeShardAccount(sa)).endCell());
    const devnet = await DevnetBlockchain.createDevnet((a) => (a.equals(wallet.address) ? raw : undefined));
    devnet.now = 1_750_000_000;
    const res = await devnet.sendMessage(await signedTransfer(wallet, [{ to: new Address(0, Buffer.alloc(32, 1)), value: toNano(1), bounce: true }]));
    const sc = await devnet.getContract(wallet.address);
    const held = await devnet.heldAccount(wallet.address);
    const decoded = loadShardAccount(shardAccountCell(held).beginParse());
    // the lazy account stores back to the very cell the executor produced
    expect(beginCell().store(storeShardAccount(sc.account)).endCell().hash().equals(shardAccountCell(held).hash())).toBe(true);
    expect(plain(sc.account)).toEqual(plain(decoded));
    // transfer, bounce at the receiver, the bounced message back at the wallet
    expect(res.transactions.map((t) => t.lt)).toEqual([1_000_000n, 2_000_000n, 3_000_000n]);
    expect(sc.lastTransactionLt).toBe(3_000_000n);
    // the snapshot (deepcopy) sees plain values
    expect(plain(devnet.snapshot().contracts.find((c) => c.address.equals(wallet.address))!.account)).toEqual(plain(decoded));
    // writes reach the held cell as with the stock contract
    sc.balance = 5n;
    const after = loadShardAccount(shardAccountCell(await devnet.heldAccount(wallet.address)).beginParse());
    expect(after.account!.storage.balance.coins).toBe(5n);
    // the receiver did not exist and the message bounced: account_none, not decoded
    const receiver = await devnet.getContract(new Address(0, Buffer.alloc(32, 1)));
    expect(res.transactions[1].endStatus).toBe('non-existing');
    expect(receiver.account.account).toBeUndefined();
  });
});
