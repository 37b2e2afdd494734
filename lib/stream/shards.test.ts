// A trace that crosses shards is finalized a masterchain block at a time (each hop to another shard lands
// a block later): each finalized part streams as it is committed, and a prediction that comes true is not
// voided by a part — only the whole, once its last message landed, must be all of it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { normalizedHash } from '../ton/normalized-hash';
import { messageBoc } from '../testing/devnet';
import { ReceivedStream } from '../testing/received-stream';
import { startStreamChain, type StreamChain } from '../testing/stream';
import { genesisJettonTransfer, genesisWallet } from '../testing/wallets';
import { FINALITIES } from './finality';
import { whole } from './invalidation';
import { parseSubscription } from './subscription';

let s: StreamChain;
beforeAll(async () => {
  // Two basechain shards: the devnet splits its one shard a few blocks in.
  s = await startStreamChain({ seed: 'stream-shards', shards: 2, rounds: 8 });
}, 240_000);
afterAll(() => s?.close());

it('streams a cross-shard trace part by part, rising, and a prediction that came true is not voided', async () => {
  const alice = await genesisWallet(s.chain, 'alice');
  const msg = await genesisJettonTransfer(s.chain, alice, { to: 'bob', amount: 99n, comment: 'across shards' });
  const key = normalizedHash(msg)!.toString('base64');
  const sub = parseSubscription({ types: ['trace', 'trace_invalidated'], trace_external_hash_norms: [key], min_finality: 'pending' }, { maxAddresses: 10 });
  if (!sub.ok) throw new Error(sub.error);
  const got = new ReceivedStream();
  const slot = s.hub.admit(null, '127.0.0.1');
  if (!slot.ok) throw new Error(slot.error);
  s.hub.register(got, 'websocket', slot.owner).subscribe(sub.value);
  expect((await s.chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).body.ok).toBe(true);
  const done = () => got.of('trace').some((n) => n.finality === 'finalized' && whole(Object.values(n.transactions)));
  // Without confirmed data (STREAM_CONFIRMED=off) the prediction meets the finalized parts themselves.
  for (let i = 0; i < 8 && !done(); i++) await s.sealAndIndex({ confirmed: false });
  expect(done()).toBe(true);
  // More than one part: the trace crossed shards, masterchain blocks apart.
  expect(got.of('trace').filter((n) => n.finality === 'finalized').length).toBeGreaterThan(1);
  expect(got.of('trace_invalidated')).toEqual([]);
  const finalities = got.of('trace').map((n) => n.finality);
  expect(finalities[0]).toBe('pending');
  const ranks = finalities.map((f) => FINALITIES.indexOf(f));
  expect(ranks).toEqual([...ranks].sort());
  const last = got.of('trace').at(-1)!;
  expect(last.actions?.find((a) => a.type === 'jetton_transfer')?.details).toMatchObject({ amount: '99', comment: 'across shards' });
  // The hops ran in both shards.
  expect(new Set(Object.values(last.transactions).filter((t) => t.block_ref.workchain === 0).map((t) => t.block_ref.shard)).size).toBe(2);
}, 120_000);
