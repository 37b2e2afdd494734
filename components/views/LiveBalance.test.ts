/**
 * The account page's live balance, rendered as the server renders it, over the explorer's real fetcher
 * and real HTTP to the real API handlers on the devnet: "verified by proof" shows only when the server
 * verified that answer (LITE_VERIFY=on); a tampered answer shows as refused, never as a balance.
 */
import { Address } from '@ton/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { LiteClient } from 'ton-lite-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetLiteHandler } from '@/lib/devnet/lite-handler';
import { InProcessLiteEngine } from '@/lib/devnet/transport/in-process-engine';
import { formatUnits } from '@/lib/format/amount';
import { createLiteClient } from '@/lib/lite';
import type { LiteQueryHandler } from '@/lib/lite/tl/codec';
import { setOrigin } from '@/lib/client/fetcher';
import { resourceQuery } from '@/lib/client/queries';
import { startTestChain, type TestChain } from '@/lib/testing/chain';
import { testApi } from '@/lib/testing/api';
import { richerBalances, tamperingHandler } from '@/lib/testing/tampering-lite';
import { LiveBalance, LIVE_BALANCE_CHECKED } from './LiveBalance';

let chain: TestChain;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  chain = await startTestChain({ seed: 'live-balance', rounds: 1 });
}, 120_000);
afterAll(async () => {
  setOrigin('', {}, (url, init) => fetch(url, init)); // the fetcher's module state is shared with other test files
  for (const close of closers) await close();
  await chain?.close();
});

/** The API over a lite client of `handler`, verifying or not, on a real HTTP server the fetcher points at. */
async function serve(handler: LiteQueryHandler, verify: boolean): Promise<void> {
  const lite: LiteClient = createLiteClient(
    { kind: 'engine', engine: new InProcessLiteEngine(handler), name: 'devnet', anchor: { seqno: 0, ...chain.devnet.zeroState } },
    { verify },
  );
  const api = testApi({ lite, tvm: chain.tvm });
  const server = await api.serve();
  closers.push(async () => {
    await server.close();
    await api.pending?.close();
    lite.engine.close();
  });
  setOrigin(server.url, {}, (url, init) => fetch(url, init));
}

/** The markup after the page's read (as prefetched on the server, or fetched by the browser: either fills this cache). */
async function render(address: string): Promise<string> {
  // retryOnMount off: the render shows the read's outcome, as the browser does once its own read has failed.
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false } } });
  await qc.prefetchQuery(resourceQuery('liveAccount', { address }));
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: qc }, createElement(LiveBalance, { address })));
}

const honest = () => createDevnetLiteHandler(chain.devnet.chain);
const alice = () => chain.account('alice');
async function aliceBalance(): Promise<string> {
  const last = (await chain.lite.getMasterchainInfo()).last;
  return formatUnits((await chain.lite.getAccountState(Address.parseRaw(alice().address), last)).balance.coins, 9);
}
const escaped = (text: string) => text.replace(/'/g, '&#x27;');

describe('LiveBalance', () => {
  it('shows "verified by proof", with what was checked, when the server verified the balance', async () => {
    await serve(honest(), true);
    const html = await render(alice().friendly.bounceable);
    expect(html).toContain('data-testid="live-balance"');
    expect(html).toContain(await aliceBalance());
    expect(html).toContain('data-testid="proof-badge"');
    expect(html).toMatch(/<summary[^>]*title="Read from the chain through a lite server just now and checked by proof/);
    expect(html).toContain(escaped(LIVE_BALANCE_CHECKED));
    expect(html).toContain('verified by proof');
  });

  it('shows the balance without the badge when the server does not verify', async () => {
    await serve(honest(), false);
    const html = await render(alice().friendly.bounceable);
    expect(html).toContain(await aliceBalance());
    expect(html).not.toContain('verified by proof');
  });

  it('shows a tampered answer as refused, without its balance', async () => {
    await serve(tamperingHandler(honest(), richerBalances), true);
    const html = await render(alice().friendly.bounceable);
    expect(html).toContain('data-testid="live-balance-error"');
    expect(html).toContain('Refused: the lite server’s answer did not pass the proof check');
    expect(html).toContain('LITE_SERVER_PROOF');
    expect(html).not.toContain('data-testid="live-balance"');
    expect(html).not.toContain('verified by proof');
  });
});
