import { beforeAll, describe, expect, it } from 'vitest';
import { Address, toNano } from '@ton/core';
import { Blockchain } from '@ton/sandbox';
import { textCommentBody } from '../contracts/common';
import { createWallet } from '../contracts/wallets';
import { sandboxDriver } from './driver';
import { genesisAddress, runGenesis, type GenesisAccount } from './genesis';
import { createTrafficGenerator, type TrafficGenerator } from './traffic';
import { WalletHandle } from './wallet-handle';

const SEED = 'traffic-test';

describe('traffic', () => {
  let bc: Blockchain;
  let driver: ReturnType<typeof sandboxDriver>;
  let accounts: GenesisAccount[];
  let traffic: TrafficGenerator;

  beforeAll(async () => {
    bc = await Blockchain.create();
    bc.now = Math.floor(Date.now() / 1000);
    driver = sandboxDriver(bc);
    accounts = await runGenesis(driver, { seed: SEED });
    traffic = createTrafficGenerator(driver, accounts, { seed: SEED, tps: 4 });
  });

  it('50 steps produce transactions of every sort without rejected externals', async () => {
    const before = driver.transactions.length;
    const started = performance.now();
    let sent = 0;
    for (let i = 0; i < 50; i++) {
      bc.now = Math.floor(Date.now() / 1000);
      sent += await traffic.step();
    }
    const ms = performance.now() - started;
    const txs = driver.transactions.length - before;
    console.log(`traffic: 50 steps, ${sent} externals, ${txs} transactions in ${ms.toFixed(0)} ms`, traffic.stats.byAction);
    expect(traffic.stats.rejected).toBe(0);
    expect(sent).toBeGreaterThanOrEqual(200);
    expect(txs).toBeGreaterThan(sent * 2);
    for (const a of ['ton', 'ton_comment', 'jetton', 'jetton_mint', 'jetton_burn', 'nft', 'market', 'highload', 'dns', 'bounce', 'abort']) {
      expect(traffic.stats.byAction[a] ?? 0, a).toBeGreaterThan(0);
    }
    // Failures it made on purpose: bounced transfers and aborted compute phases.
    const bounced = driver.transactions.slice(before).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced);
    expect(bounced.length).toBeGreaterThan(0);
  });

  it('marketplace moves: every one, each as the chain allows it (a card listed, bought, cancelled, bid on, finished)', async () => {
    const deployer = genesisAddress(accounts, 'nft_marketplace');
    const txsOf = (from: number) => driver.transactions.slice(from);
    // The deployer opened the sale or auction it was asked to: a deployment it sent, and the item it handed on.
    const deployedBy = (from: number) => txsOf(from).filter((t) => t.inMessage?.info.src instanceof Address && t.inMessage.info.src.equals(deployer) && t.inMessage.init);
    for (const move of ['list_sale', 'buy', 'list_sale', 'cancel_sale', 'list_auction', 'bid', 'bid', 'finish_auction', 'list_auction', 'cancel_auction'] as const) {
      const from = driver.transactions.length;
      const r = await traffic.market(move);
      expect(r, move).toEqual({ move, sent: true });
      const aborted = txsOf(from).filter((t) => t.description.type === 'generic' && t.description.aborted);
      // Only the fixed-price sale's refusal of the ownership_assigned its item sends it (GetGems' v2 sale, seller preset) aborts.
      expect(aborted.every((t) => t.inMessage?.body.beginParse().preloadUint(32) === 0x05138d91), move).toBe(true);
      if (move.startsWith('list_')) expect(deployedBy(from), move).toHaveLength(1);
    }
  });

  it('recovers when a wallet was used behind its back (stale seqno)', async () => {
    // Spend from every ordinary wallet outside the generator: its tracked seqnos are now stale.
    for (const a of accounts.filter((x) => x.secret_key_hex && x.kind.startsWith('wallet_v') && x.kind !== 'wallet_v5beta')) {
      const secret = Buffer.from(a.secret_key_hex!, 'hex');
      const address = Address.parseRaw(a.address);
      const h = new WalletHandle(a.name, createWallet(a.kind as 'wallet_v4r2', secret.subarray(32), { workchain: address.workChain }), secret);
      await h.resync(bc);
      await h.send(driver, [{ to: genesisAddress(accounts, 'faucet'), value: toNano('0.01'), bounce: true, body: textCommentBody('side channel') }]);
    }
    const sentBefore = traffic.stats.sent;
    for (let i = 0; i < 20; i++) await traffic.step();
    expect(traffic.stats.rejected).toBeGreaterThan(0);
    expect(traffic.stats.sent - sentBefore).toBeGreaterThanOrEqual(80 - traffic.stats.rejected);
    // Once resynced, no wallet is rejected twice.
    const rejectedNow = traffic.stats.rejected;
    for (let i = 0; i < 10; i++) await traffic.step();
    expect(traffic.stats.rejected).toBe(rejectedNow);
  });
});
