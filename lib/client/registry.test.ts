// The client registry against the real route handlers over real HTTP on an indexed devnet: every
// resource the pages read answers in the shape the registry declares, the v2 envelope is unwrapped,
// errors keep their status, and the lt cursors page through lists without gaps or repeats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '@/lib/testing/chain';
import type { HttpTestServer } from '@/lib/testing/http-server';
import { nextTxCursor, pageRows, txPageParams } from './cursor';
import { ApiError, fetchResource, setOrigin } from './fetcher';
import { mcBlocksParams, nextMcBlocksCursor, visibleBlocks } from './filters';
import type { TransactionsParams } from './registry';

let chain: TestChain;
let server: HttpTestServer;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'client-registry', rounds: 2, index: true });
  server = await chain.serve();
  setOrigin(server.url);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

/** Every row of a list, one cursor page at a time. */
async function pageThrough(filter: TransactionsParams, limit: number) {
  const all: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await fetchResource('transactions', txPageParams(filter, cursor, limit));
    all.push(...pageRows(page.transactions, limit).map((t) => t.hash));
    cursor = nextTxCursor(page.transactions, cursor, limit);
    if (!cursor) return all;
  }
  throw new Error('paging did not end');
}

describe('client registry over the real routes', () => {
  it('reads blocks, shard blocks and paged masterchain blocks', async () => {
    const info = await fetchResource('masterchainInfo', {});
    expect(info.last.workchain).toBe(-1);
    const shards = await fetchResource('masterchainBlockShards', { seqno: info.last.seqno });
    expect(shards.blocks.some((b) => b.workchain === 0)).toBe(true);
    const first = await fetchResource('blocks', mcBlocksParams(undefined, 2));
    expect(visibleBlocks(first.blocks, 2).map((b) => b.seqno)).toEqual([info.last.seqno, info.last.seqno - 1]);
    const second = await fetchResource('blocks', mcBlocksParams(nextMcBlocksCursor(first.blocks, 2), 2));
    expect(second.blocks[0]!.seqno).toBe(info.last.seqno - 2);
  });

  it('pages an account and a masterchain block by lt cursor: every row once, in order', async () => {
    const alice = chain.account('alice').address;
    const full = (await fetchResource('transactions', { account: alice, limit: 1000 })).transactions.map((t) => t.hash);
    expect(full.length).toBeGreaterThan(3);
    expect(await pageThrough({ account: alice }, 2)).toEqual(full);

    // Genesis block 1 holds the transactions of many accounts (shared lts are covered in cursor.test.ts:
    // the devnet gives every transaction its own lt).
    const block = (await fetchResource('transactions', { mc_seqno: 1, limit: 1000 })).transactions;
    expect(block.length).toBeGreaterThan(20);
    expect(await pageThrough({ mc_seqno: 1 }, 3)).toEqual(block.map((t) => t.hash));
  });

  it('reads account states, wallet states, the address book and address forms (v2 envelope unwrapped)', async () => {
    const alice = chain.account('alice');
    const states = await fetchResource('accountStates', { address: alice.friendly.bounceable, include_boc: true });
    expect(states.accounts[0]!.status).toBe('active');
    expect(states.accounts[0]!.code_boc).toBeTruthy();
    const wallets = await fetchResource('walletStates', { address: alice.address });
    expect(wallets.wallets[0]!.wallet_type).toBe('wallet v4 r2');
    const book = await fetchResource('addressBook', { address: [alice.address, chain.account('bob').address] });
    expect(Object.keys(book)).toHaveLength(2);
    const forms = await fetchResource('detectAddress', { address: alice.friendly.nonBounceable });
    expect(forms.raw_form).toBe(alice.address.toLowerCase());
    expect(forms.bounceable.b64url).toBe(alice.friendly.bounceable);

    const run = await fetchResource('runGetMethod', { address: alice.address, method: 'seqno', stack: [] });
    expect(run.exit_code).toBe(0);
    expect(run.stack[0]![0]).toBe('num');
    expect(Number(BigInt(run.stack[0]![1] as string))).toBe(wallets.wallets[0]!.seqno);
  });

  it('keeps the status of failures', async () => {
    await expect(fetchResource('transactions', { mc_seqno: 999_999 })).rejects.toMatchObject({ status: 404 });
    const bad = await fetchResource('detectAddress', { address: 'not-an-address' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).status).toBe(422);
  });
});
