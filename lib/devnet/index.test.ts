/**
 * startDevnet end to end: the real genesis scenario, the global config a TON client connects with,
 * restart, determinism of seeded devnets, the block timer and the traffic generator.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { Address } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { afterAll, describe, expect, it } from 'vitest';
import { DevnetIdentityError, DevnetLockedError, SEEDED_GENESIS_TIME, startDevnet, type Devnet } from './index';
import { MASTERCHAIN } from './state';
import { rmDir, tempDir, verifyChain } from '../testing/devnet';
import { int32ToIpv4 } from './transport/adnl-server';

const dirs: string[] = [];
const newDir = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach(rmDir));

const base = { blockMs: 0, tps: 2, traffic: false, adnlPort: 0 };

describe('startDevnet', () => {
  let zeroHash = '';
  let dataDir = '';

  it('creates a devnet with the genesis scenario and a global config any TON client can use', async () => {
    dataDir = newDir();
    const devnet = await startDevnet({ ...base, dataDir, seed: 'atlas-test' });
    try {
      zeroHash = devnet.zeroState.rootHash.toString('hex');
      expect(devnet.chain.lastSeqno).toBe(1); // the genesis transactions are in round 1
      expect(devnet.genesisAccounts.find((a) => a.name === 'faucet')).toBeDefined();
      expect(JSON.parse(fs.readFileSync(devnet.genesisPath, 'utf8'))).toEqual(devnet.genesisAccounts);
      expect(readZeroUtime(devnet)).toBe(SEEDED_GENESIS_TIME);

      const config = JSON.parse(fs.readFileSync(devnet.globalConfigPath, 'utf8'));
      const ls = config.liteservers[0];
      expect(int32ToIpv4(ls.ip)).toBe('127.0.0.1');
      expect(ls.port).toBe(devnet.adnl.port);
      expect(Buffer.from(config.validator.zero_state.root_hash, 'base64').equals(devnet.zeroState.rootHash)).toBe(true);
      const engine = new LiteSingleEngine({ host: `tcp://${int32ToIpv4(ls.ip)}:${ls.port}`, publicKey: Buffer.from(ls.id.key, 'base64') });
      engine.on('error', () => {});
      await once(engine, 'ready');
      const client = new LiteClient({ engine });
      const info = await client.getMasterchainInfo();
      expect(info.init.rootHash.equals(devnet.zeroState.rootHash)).toBe(true);
      const faucet = Address.parseRaw(devnet.genesisAccounts.find((a) => a.name === 'faucet')!.address);
      expect((await client.getAccountState(faucet, info.last)).balance.coins).toBeGreaterThan(0n);
      // the in-process engine answers the same
      const local = new LiteClient({ engine: devnet.engine });
      expect((await local.getMasterchainInfo()).last).toEqual(info.last);
      engine.close();

      const check = verifyChain(devnet.chain);
      expect(check.transactions).toBeGreaterThan(50); // the genesis scenario's transactions all sealed

      // a second devnet on the same directory is refused while this one runs (the next test reopens it)
      await expect(startDevnet({ ...base, dataDir, seed: 'atlas-test' })).rejects.toThrow(DevnetLockedError);
    } finally {
      await devnet.close();
    }
  }, 60_000);

  it('continues the same chain after a restart, and refuses a different seed or zero state', async () => {
    const devnet = await startDevnet({ ...base, dataDir });
    try {
      expect(devnet.zeroState.rootHash.toString('hex')).toBe(zeroHash);
      expect(devnet.seed).toBe('atlas-test');
      expect(devnet.chain.lastSeqno).toBe(1);
      await devnet.sealNow();
      expect(devnet.chain.lastSeqno).toBe(2);
      expect(devnet.genesisAccounts.length).toBeGreaterThan(10);
    } finally {
      await devnet.close();
    }
    await expect(startDevnet({ ...base, dataDir, seed: 'other' })).rejects.toThrow(DevnetIdentityError);
    await expect(startDevnet({ ...base, dataDir, expectZeroState: { rootHash: Buffer.alloc(32, 1) } })).rejects.toThrow(
      /is not the chain the index was built from/,
    );
  }, 60_000);

  it('gives the same zero state for the same seed, another for another seed', async () => {
    const again = await startDevnet({ ...base, dataDir: newDir(), seed: 'atlas-test' });
    const other = await startDevnet({ ...base, dataDir: newDir() });
    try {
      expect(again.zeroState.rootHash.toString('hex')).toBe(zeroHash);
      expect(other.zeroState.rootHash.toString('hex')).not.toBe(zeroHash);
      expect(other.chain.seeded).toBe(false);
    } finally {
      await again.close();
      await other.close();
    }
  }, 60_000);

  it('produces rounds on its timer and runs the traffic generator', async () => {
    const devnet = await startDevnet({ ...base, dataDir: newDir(), seed: 'atlas-traffic', blockMs: 100, tps: 4, traffic: true });
    try {
      const start = devnet.chain.lastSeqno;
      const deadline = Date.now() + 20_000;
      let traffic = 0;
      const off = devnet.chain.onRound((r) => {
        traffic += r.txs.filter((t) => t.inExternal).length;
      });
      while ((devnet.chain.lastSeqno < start + 10 || traffic < 3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      off();
      expect(devnet.chain.lastSeqno).toBeGreaterThanOrEqual(start + 10);
      expect(traffic).toBeGreaterThanOrEqual(3);
      // (synchronous: no round is sealed while it runs)
      expect(verifyChain(devnet.chain).transactions).toBeGreaterThan(traffic);
    } finally {
      await devnet.close();
    }
    expect(fs.existsSync(path.join(devnet.chain.dir, 'state.boc'))).toBe(true); // snapshot written on close
  }, 60_000);
});

function readZeroUtime(devnet: Devnet): number {
  return devnet.chain.block(MASTERCHAIN, 0)!.genUtime;
}
