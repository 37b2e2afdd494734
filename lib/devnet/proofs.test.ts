/**
 * The devnet's block proofs over real TL bytes (InProcessLiteEngine encodes and decodes every call):
 * proof chains from the zero state signed by the devnet's validators, backward links, shard block
 * links and account state proofs, checked with lib/ton/proof-check (the node's check-proof rules).
 */
import { Cell, beginCell, loadAccount, storeAccount, toNano } from '@ton/core';
import { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Functions, type tonNode_blockIdExt } from '../lite/tl/codec';
import {
  MASTER_SHARD,
  checkAccountState,
  checkBlockLink,
  checkShardBlockLink,
  loadConfigDict,
  loadValidatorSet,
  nodeIdShort,
} from '../ton';
import { openScenario, rmDir, signedTransfer, type Scenario } from '../testing/devnet';
import { createDevnetLiteHandler } from './lite-handler';
import { BASECHAIN, MASTERCHAIN } from './state';
import { InProcessLiteEngine } from './transport/in-process-engine';
import { blockLinkOf, fullBlockId } from '../lite/verify';
import { DEVNET_VALIDATORS, devnetValidatorKeys } from './validators';

let s: Scenario;
let client: LiteClient;

beforeAll(async () => {
  s = await openScenario({ seed: 'proofs-test' });
  for (let i = 0; i < 4; i++) {
    await s.chain.sendExternal(await signedTransfer(s.faucet, [{ to: s.wallets.alice.address, value: toNano(1) }]));
    await s.chain.seal();
  }
  client = new LiteClient({ engine: new InProcessLiteEngine(createDevnetLiteHandler(s.chain)) });
});

afterAll(async () => {
  await s.chain.close();
  rmDir(s.dir);
});

const proof = (known: tonNode_blockIdExt, target: tonNode_blockIdExt) =>
  client.engine.query(Functions.liteServer_getBlockProof, { kind: 'liteServer.getBlockProof', mode: 1, knownBlock: known, targetBlock: target });

describe('devnet validators', () => {
  it('ConfigParam 34 holds the keys derived from the seed; mainnet sets 32 and 36 are gone', async () => {
    const dict = loadConfigDict(s.chain.blockchain.config);
    const vset = loadValidatorSet(dict.get(34)!);
    expect(vset.total).toBe(DEVNET_VALIDATORS);
    expect(vset.list.map((v) => v.publicKey.toString('hex'))).toEqual(devnetValidatorKeys('proofs-test').map((k) => k.publicKey.toString('hex')));
    expect(dict.has(32)).toBe(false);
    expect(dict.has(36)).toBe(false);
  });
});

describe('getBlockProof', () => {
  it('chains from the zero state to the last block: every link checks, forward links carry > 2/3 of the signatures', async () => {
    const info = await client.getMasterchainInfo();
    const zero = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 0 })).id;
    const res = await proof(zero, info.last);
    expect(res.complete).toBe(true);
    // zero state → key block 1 → the last block
    expect(res.steps.map((x) => [x.kind, x.from.seqno, x.to.seqno])).toEqual([
      ['liteServer.blockLinkForward', 0, 1],
      ['liteServer.blockLinkForward', 1, info.last.seqno],
    ]);
    let trusted = fullBlockId(zero);
    for (const step of res.steps) {
      const link = blockLinkOf(step);
      expect(link.from).toEqual(trusted);
      const out = checkBlockLink(link);
      trusted = link.to;
      if (step.kind === 'liteServer.blockLinkForward') {
        const ids = step.signatures.signatures.map((x) => x.nodeIdShort.toString('hex')).sort();
        expect(ids).toEqual(devnetValidatorKeys('proofs-test').map((k) => nodeIdShort(k.publicKey).toString('hex')).sort());
      }
      expect(out.header?.info.seqno).toBe(link.to.seqno);
    }
    // the last link's destination proof gives the state hash getMasterchainInfo names
    expect(checkBlockLink(blockLinkOf(res.steps[1])).header!.stateHash!.equals(info.stateRootHash)).toBe(true);
  });

  it('goes back from a newer block through the previous blocks of its state', async () => {
    const info = await client.getMasterchainInfo();
    const old = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 2 })).id;
    const res = await proof(info.last, old);
    expect(res.complete).toBe(true);
    expect(res.steps).toHaveLength(1);
    expect(res.steps[0].kind).toBe('liteServer.blockLinkBack');
    checkBlockLink(blockLinkOf(res.steps[0]));
  });

  it('refuses links that were altered: a swapped signature, a signature of another block, a destination that is not the block', async () => {
    const info = await client.getMasterchainInfo();
    const key1 = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: 1 })).id;
    const res = await proof(key1, info.last);
    const link = blockLinkOf(res.steps[0]);
    if (!link.forward) throw new Error('expected a forward link');
    const sigs = link.signatures;
    // one validator's signature replaced by another's: unknown signature for that node
    expect(() => checkBlockLink({ ...link, signatures: [{ ...sigs[0], signature: sigs[1].signature }, ...sigs.slice(1)] })).toThrow(/bad signature/);
    // only half of the validators: not more than 2/3
    expect(() => checkBlockLink({ ...link, signatures: sigs.slice(0, 2) })).toThrow(/insufficient signature weight/);
    // the signatures of another block
    const before = (await client.lookupBlockByID({ workchain: MASTERCHAIN, shard: MASTER_SHARD.toString(), seqno: info.last.seqno - 1 })).id;
    const other = blockLinkOf((await proof(key1, before)).steps[0]);
    if (!other.forward) throw new Error('expected a forward link');
    expect(() => checkBlockLink({ ...link, signatures: other.signatures })).toThrow(/bad signature/);
    // a destination proof of another block
    expect(() => checkBlockLink({ ...link, destProof: other.destProof })).toThrow(/root hash/);
  });
});

describe('getShardBlockProof and account state proofs', () => {
  it('a basechain block is named by the masterchain block of its round', async () => {
    const shard = (await client.lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 3 })).id;
    const res = await client.engine.query(Functions.liteServer_getShardBlockProof, { kind: 'liteServer.getShardBlockProof', id: shard });
    expect(res.masterchainId.seqno).toBe(3);
    expect(res.links).toHaveLength(1);
    checkShardBlockLink(fullBlockId(res.masterchainId), fullBlockId(res.links[0].id), res.links[0].proof);
    expect(res.links[0].id).toEqual(shard);
    const other = (await client.lookupBlockByID({ workchain: BASECHAIN, shard: MASTER_SHARD.toString(), seqno: 2 })).id;
    expect(() => checkShardBlockLink(fullBlockId(res.masterchainId), fullBlockId(other), res.links[0].proof)).toThrow(/top block/);
  });

  it("an account's state checks against the masterchain block, and a changed balance does not", async () => {
    const last = (await client.getMasterchainInfo()).last;
    const address = s.wallets.alice.address;
    const res = await client.engine.query(Functions.liteServer_getAccountState, {
      kind: 'liteServer.getAccountState',
      id: last,
      account: { kind: 'liteServer.accountId', workchain: address.workChain, id: address.hash },
    });
    const account = Cell.fromBoc(res.state)[0];
    const args = { mc: fullBlockId(last), shardBlock: fullBlockId(res.shardblk), account: { workchain: address.workChain, id: address.hash }, shardProof: res.shardProof, proof: res.proof };
    const ok = checkAccountState({ ...args, stateHash: account.hash() });
    expect(ok.lastTransLt).toBeGreaterThan(0n);
    // the same account with one nanoton more
    const slice = account.beginParse();
    slice.loadBit(); // account$1
    const acc = loadAccount(slice);
    acc.storage.balance.coins += 1n;
    const tampered = beginCell().storeBit(1).store(storeAccount(acc)).endCell();
    expect(() => checkAccountState({ ...args, stateHash: tampered.hash() })).toThrow(/account state hash mismatch/);
    expect(() => checkAccountState({ ...args, stateHash: undefined })).toThrow(/account exists/);
  });
});
