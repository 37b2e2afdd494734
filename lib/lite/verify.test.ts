/**
 * LITE_VERIFY against the devnet over real TL bytes: the lite client (createLiteClient with verify)
 * reads the devnet's lite_api through InProcessLiteEngine; a tampering liteserver in between
 * (lib/testing/tampering-lite.ts: the devnet's answer decoded, changed and encoded again) is refused.
 */
import { Address, toNano } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetLiteHandler } from '../devnet/lite-handler';
import { BASECHAIN, MASTERCHAIN } from '../devnet/state';
import { MASTER_SHARD } from '../ton';
import { InProcessLiteEngine } from '../devnet/transport/in-process-engine';
import { openScenario, rmDir, signedTransfer, type Scenario } from '../testing/devnet';
import { richerBalances, tamperingHandler } from '../testing/tampering-lite';
import { createLiteClient } from './client';
import { LiteVerificationError } from './errors';
import { Functions, type LiteQueryHandler } from './tl/codec';

let s: Scenario;
let honest: LiteQueryHandler;

beforeAll(async () => {
  s = await openScenario({ seed: 'lite-verify' });
  for (let i = 0; i < 3; i++) {
    await s.chain.sendExternal(await signedTransfer(s.faucet, [{ to: s.wallets.alice.address, value: toNano(1) }]));
    await s.chain.seal();
  }
  honest = createDevnetLiteHandler(s.chain);
});

afterAll(async () => {
  await s.chain.close();
  rmDir(s.dir);
});

function clientOver(handler: LiteQueryHandler, verify = true): LiteClient {
  const zero = s.chain.identity!.zeroState.masterchain;
  return createLiteClient(
    { kind: 'engine', engine: new InProcessLiteEngine(handler), name: 'devnet', anchor: { seqno: 0, rootHash: zero.rootHash, fileHash: zero.fileHash } },
    { verify, cache: false },
  );
}

const alice = () => s.wallets.alice.address;

describe('LITE_VERIFY on an honest devnet', () => {
  it('reads the head, account states, headers and blocks, every one checked', async () => {
    const client = clientOver(honest);
    const info = await client.getMasterchainInfo();
    expect(info.last.seqno).toBe(s.chain.lastSeqno);
    const state = await client.getAccountState(alice(), info.last);
    expect(state.balance.coins).toBeGreaterThan(toNano(10_000));
    // an account that does not exist: its absence is proven
    const nobody = new Address(0, Buffer.alloc(32, 0x42));
    expect((await client.getAccountState(nobody, info.last)).state).toBeNull();
    // a masterchain account
    expect((await client.getAccountState(s.wallets.master.address, info.last)).balance.coins).toBe(toNano(10_000));
    // a shard block's header and data (the shard block proven through the masterchain)
    const shard = await client.lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 2 });
    const block = await client.engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: shard.id });
    expect(block.data.length).toBeGreaterThan(0);
    // an older masterchain block: reached backwards from the newest trusted key block
    const old = await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 2 });
    expect((await client.getAccountState(alice(), old.id)).balance.coins).toBeGreaterThan(0n);
    // the zero state: no header to prove, trusted as the anchor itself
    expect((await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 0 })).id.rootHash).toEqual(s.chain.identity!.zeroState.masterchain.rootHash);
    // and new blocks as they come
    await s.chain.seal();
    expect((await client.getMasterchainInfo()).last.seqno).toBe(s.chain.lastSeqno);
    client.engine.close();
  });
});

describe('LITE_VERIFY against a tampering liteserver', () => {
  it('refuses a balance changed by one nanoton (without LITE_VERIFY it would be believed)', async () => {
    const trusting = clientOver(tamperingHandler(honest, richerBalances), false);
    const last = (await trusting.getMasterchainInfo()).last;
    const real = (await clientOver(honest).getAccountState(alice(), last)).balance.coins;
    expect((await trusting.getAccountState(alice(), last)).balance.coins).toBe(real + 1n);
    const client = clientOver(tamperingHandler(honest, richerBalances));
    const err = await client.getAccountState(alice(), last).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteVerificationError);
    expect((err as Error).message).toMatch(/account state hash mismatch/);
  });

  it('refuses an account state proof taken from another account', async () => {
    const bob = s.wallets.bob.address;
    // swap in bob's proofs for alice's answer
    const bobProof = await clientOver(honest, false).engine.query(Functions.liteServer_getAccountState, {
      kind: 'liteServer.getAccountState',
      id: (await clientOver(honest, false).getMasterchainInfo()).last,
      account: { kind: 'liteServer.accountId', workchain: bob.workChain, id: bob.hash },
    });
    const client = clientOver(tamperingHandler(honest, (kind, a) => (kind === 'liteServer.getAccountState' ? { ...a, proof: bobProof.proof } : undefined)));
    const err = await client.getAccountState(alice(), bobProof.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteVerificationError);
  });

  it('refuses a block proof whose signatures were swapped, and a head it cannot prove', async () => {
    const client = clientOver(
      tamperingHandler(honest, (kind, a) => {
        if (kind !== 'liteServer.getBlockProof') return undefined;
        const steps = (a.steps as { kind: string; signatures?: { signatures: { nodeIdShort: Buffer; signature: Buffer }[] } }[]).map((step) => {
          if (step.kind !== 'liteServer.blockLinkForward' || !step.signatures) return step;
          const sigs = step.signatures.signatures;
          // each validator's id now carries its neighbour's signature
          return { ...step, signatures: { ...step.signatures, signatures: sigs.map((x, i) => ({ ...x, signature: sigs[(i + 1) % sigs.length].signature })) } };
        });
        return { ...a, steps };
      }),
    );
    const err = await client.getMasterchainInfo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteVerificationError);
    expect((err as Error).message).toMatch(/bad signature/);
  });

  it('refuses a head whose state root hash was changed', async () => {
    const client = clientOver(tamperingHandler(honest, (kind, a) => (kind === 'liteServer.getMasterchainInfo' ? { ...a, stateRootHash: Buffer.alloc(32, 7) } : undefined)));
    await expect(client.getMasterchainInfo()).rejects.toThrow(/state root hash/);
  });

  it('refuses a real block offered for another seqno, and a zero state other than the trusted one', async () => {
    const older = await clientOver(honest, false).lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 2 });
    const lying = clientOver(
      tamperingHandler(honest, (kind, a) => {
        if (kind !== 'liteServer.lookupBlock') return undefined;
        const id = a.id as { seqno: number };
        if (id.seqno === 3) return { ...a, id: older.id, headerProof: older.headerProof };
        if (id.seqno === 0) return { ...a, id: { ...id, rootHash: Buffer.alloc(32, 9) } };
        return undefined;
      }),
    );
    await expect(lying.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 3 })).rejects.toThrow(/not seqno 3 of workchain -1/);
    await expect(lying.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 0 })).rejects.toThrow(/is not the trusted zero state/);
  });

  it('refuses a head whose last_utime is not its block\'s gen_utime', async () => {
    const client = clientOver(tamperingHandler(honest, (kind, a) => (kind === 'liteServer.getMasterchainInfoExt' ? { ...a, lastUtime: (a.lastUtime as number) + 60 } : undefined)));
    await expect(client.getMasterchainInfoExt()).rejects.toThrow(/last_utime .* is not the gen_utime/);
    expect((await clientOver(honest).getMasterchainInfoExt()).lastUtime).toBe(s.chain.lastBlock(MASTERCHAIN)!.genUtime);
  });

  it('refuses a shard block that the masterchain does not name', async () => {
    // the proof of basechain block 3 (its masterchain block names block 3) offered for block 2
    const other = await clientOver(honest, false).engine.query(Functions.liteServer_getShardBlockProof, {
      kind: 'liteServer.getShardBlockProof',
      id: (await clientOver(honest, false).lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 3 })).id,
    });
    const lying = clientOver(
      tamperingHandler(honest, (kind, a) =>
        kind === 'liteServer.getShardBlockProof'
          ? { ...a, masterchainId: other.masterchainId, links: (a.links as object[]).map((l) => ({ ...l, proof: other.links[0].proof })) }
          : undefined,
      ),
    );
    const err = await lying.lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteVerificationError);
    expect((err as Error).message).toMatch(/top block/);
  });
});
