// Transactions in one line, on the genesis of an indexed devnet: a wallet's external that paid with a
// comment, the receiver's side of it, a transfer to an address that does not exist and the bounce that
// brought the value back.
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_TEXTS } from '../devnet/genesis/genesis';
import { startTestChain, type TestChain } from '../testing/chain';
import { rawUpper } from '../ton/address';
import type { MetadataJson } from '../api/v3/models/common';
import type { TransactionJson } from '../api/v3/models/transactions';
import { formatUnits } from './amount';
import { jettonOfMessage, jettonOfWallet } from './jetton';
import { summarizeTx, summaryText } from './tx-summary';

let chain: TestChain;
const acc = (name: string) => rawUpper(Address.parse(chain.account(name).address));

beforeAll(async () => {
  chain = await startTestChain({ seed: 'tx-summary', index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

async function txsOf(name: string): Promise<TransactionJson[]> {
  const r = await chain.callV3('transactions', { account: acc(name), limit: 100, sort: 'asc' });
  expect(r.status).toBe(200);
  return (r.body as { transactions: TransactionJson[] }).transactions;
}

const names = () => new Map(['alice', 'bob', 'carol', 'bounce_target'].map((n) => [acc(n), n]));
const text = (t: TransactionJson) => {
  const n = names();
  return summaryText(t, summarizeTx(t), (raw) => n.get(raw) ?? raw, (v) => `${formatUnits(v, 9)} TON`);
};

describe('summarizeTx', () => {
  it('says who paid whom how much, with the comment, from either side', async () => {
    const sent = (await txsOf('alice')).find((t) => t.in_msg?.source === null && t.out_msgs.some((m) => m.destination === acc('bob') && m.value === '1500000000'))!;
    expect(summarizeTx(sent)).toMatchObject({ direction: 'out', summary: { kind: 'sent', to: acc('bob'), others: 0, value: 1_700_000_000n, comment: GENESIS_TEXTS.unicode } });
    expect(text(sent)).toBe(`alice sent 1.7 TON to bob: “${GENESIS_TEXTS.unicode}”`);

    const received = (await txsOf('bob')).find((t) => t.in_msg?.source === acc('alice') && t.in_msg.value === '1500000000')!;
    expect(summarizeTx(received)).toMatchObject({ direction: 'in', failure: undefined, bouncedBack: false });
    expect(text(received)).toBe(`alice sent 1.5 TON to bob: “${GENESIS_TEXTS.unicode}”`);
  });

  it('explains a transfer to an address that does not exist and the bounce that returned the value', async () => {
    const [missing] = await txsOf('bounce_target');
    const line = summarizeTx(missing!);
    expect(line).toMatchObject({ direction: 'in', failure: 'the destination does not exist', bouncedBack: true });
    expect(text(missing!)).toBe('carol sent 2 TON to bounce_target: “are you there?” — failed, the destination does not exist; the value bounced back to the sender');

    const back = (await txsOf('carol')).find((t) => t.in_msg?.bounced && t.in_msg.source === acc('bounce_target'))!;
    expect(summarizeTx(back)).toMatchObject({ direction: 'in', summary: { kind: 'returned', from: acc('bounce_target') } });
    expect(text(back)).toMatch(/^1\.99\d* TON came back to carol from bounce_target \(bounced\)$/);
  });
});

describe('jettonOfMessage', () => {
  it('reads the decimals and symbol of the jetton a transfer body counts from the metadata of its parties', async () => {
    const tx = (await txsOf('alice')).find((t) => t.out_msgs.some((m) => m.destination === acc('alice_jetton')))!;
    const transfer = tx.out_msgs.find((m) => m.destination === acc('alice_jetton'))!;
    expect(transfer.message_content?.decoded?.['@type']).toBe('jetton_transfer');
    const r = await chain.callV3('metadata', { address: [transfer.source!, transfer.destination!] });
    expect(r.status).toBe(200);
    expect(jettonOfMessage(transfer, r.body as MetadataJson)).toEqual({ decimals: 9, symbol: 'ATLAS' });
    // Without the wallet's entry nothing is guessed: the view shows base units.
    expect(jettonOfMessage(transfer, {})).toBeUndefined();
  });
});

describe('jetton lines', () => {
  it('reads a jetton transfer as tokens moving between owners, from the sender and from the receiver', async () => {
    const sent = (await txsOf('alice')).find((t) => t.out_msgs.some((m) => m.destination === acc('alice_jetton')))!;
    const line = summarizeTx(sent);
    expect(line).toMatchObject({ direction: 'out', summary: { kind: 'sent_jetton', to: acc('carol'), wallet: acc('alice_jetton'), amount: 12_345_000_000_000n, comment: GENESIS_TEXTS.jettonToCarol } });
    const meta = (await chain.callV3('metadata', { address: [acc('alice_jetton'), acc('carol_jetton')] })).body as MetadataJson;
    const n = names();
    const jettons = (v: bigint, wallet: string) => {
      const u = jettonOfWallet(wallet, meta)!;
      return `${formatUnits(v, u.decimals)} ${u.symbol}`;
    };
    const say = (t: TransactionJson) => summaryText(t, summarizeTx(t), (raw) => n.get(raw) ?? raw, (v) => `${formatUnits(v, 9)} TON`, jettons);
    expect(say(sent)).toBe(`alice sent 12,345 ATLAS to carol: “${GENESIS_TEXTS.jettonToCarol}”`);

    const notified = (await txsOf('carol')).find((t) => t.in_msg?.source === acc('carol_jetton') && t.in_msg.message_content?.decoded?.['@type'] === 'jetton_notify')!;
    expect(summarizeTx(notified).summary).toMatchObject({ kind: 'received_jetton', from: acc('alice'), wallet: acc('carol_jetton') });
    expect(say(notified)).toBe(`alice sent 12,345 ATLAS to carol: “${GENESIS_TEXTS.jettonToCarol}”`);
  });
});
