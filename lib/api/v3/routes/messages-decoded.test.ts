// decoded_opcode and decoded on the devnet, indexed: the genesis jetton and NFT transfers (with their
// comments in the forward payloads), DNS record changes and comments, as /messages and /transactions answer them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { GENESIS_JETTON_AMOUNTS, GENESIS_TEXTS } from '../../../devnet/genesis/genesis';
import type { MessageJson } from '../models/messages';
import type { TransactionJson } from '../models/transactions';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-decoded', index: true });
}, 300_000);
afterAll(() => chain?.close());

type Msgs = { messages: MessageJson[] };
const raw = (name: string) => {
  const [wc, hex] = chain.account(name).address.split(':');
  return `${wc}:${hex!.toUpperCase()}`;
};
const messages = async (q: Record<string, string>) => {
  const r = await chain.callV3<Msgs>('messages', { limit: '1000', ...q });
  expect(r.status).toBe(200);
  return r.body.messages;
};
const decoded = (m: MessageJson) => m.message_content?.decoded as Record<string, unknown> | null;

describe('/messages', () => {
  it('jetton transfers: the owner\'s request, the internal transfer and the notification, with amounts and comments', async () => {
    const transfers = await messages({ opcode: '0x0f8a7ea5' });
    const toCarol = transfers.find((m) => m.destination === raw('alice_jetton') && decoded(m)?.destination === raw('carol'))!;
    expect(toCarol.decoded_opcode).toBe('jetton_transfer');
    expect(decoded(toCarol)).toMatchObject({
      '@type': 'jetton_transfer',
      query_id: '7',
      amount: String(GENESIS_JETTON_AMOUNTS.aliceToCarol),
      destination: raw('carol'),
      forward_payload: { '@type': 'text_comment', text: GENESIS_TEXTS.jettonToCarol },
    });
    expect(toCarol.source).toBe(raw('alice'));
    expect(toCarol.destination).toBe(raw('alice_jetton'));

    const internal = (await messages({ opcode: '0x178d4519', destination: raw('carol_jetton') })).find((m) => decoded(m)?.amount === String(GENESIS_JETTON_AMOUNTS.aliceToCarol))!;
    expect(internal.decoded_opcode).toBe('jetton_internal_transfer');
    expect(decoded(internal)).toMatchObject({ amount: String(GENESIS_JETTON_AMOUNTS.aliceToCarol), from: raw('alice') });

    const notify = (await messages({ opcode: '0x7362d09c', destination: raw('carol') })).find((m) => m.source === raw('carol_jetton') && decoded(m)?.sender === raw('alice'))!;
    expect(notify.decoded_opcode).toBe('jetton_notify');
    expect(decoded(notify)).toMatchObject({ sender: raw('alice'), forward_payload: { '@type': 'text_comment', text: GENESIS_TEXTS.jettonToCarol } });

    const burn = (await messages({ opcode: '0x595f07bc', source: raw('bob') })).find((m) => decoded(m)?.query_id === '9')!;
    expect(decoded(burn)).toMatchObject({ '@type': 'jetton_burn', query_id: '9', amount: String(GENESIS_JETTON_AMOUNTS.bobBurn), response_destination: raw('bob') });
    const excesses = await messages({ opcode: '0xd53276db' });
    expect(excesses.length).toBeGreaterThan(0);
    for (const m of excesses) expect(decoded(m)).toEqual({ '@type': 'excess', query_id: expect.any(String) });
  });

  it('NFT transfer with its gift comment, and the item\'s ownership_assigned', async () => {
    const gift = (await messages({ opcode: '0x5fcc3d14' })).find((m) => decoded(m)?.new_owner === raw('carol'))!;
    expect(gift.decoded_opcode).toBe('nft_transfer');
    expect(decoded(gift)).toMatchObject({ response_destination: raw('alice'), forward_amount: '10000000', forward_payload: { '@type': 'text_comment', text: GENESIS_TEXTS.nftGift } });
    const assigned = (await messages({ opcode: '0x05138d91', destination: raw('carol') }))[0]!;
    expect(assigned.decoded_opcode).toBe('nft_ownership_assigned');
    expect(decoded(assigned)).toMatchObject({ prev_owner: raw('alice'), forward_payload: { '@type': 'text_comment', text: GENESIS_TEXTS.nftGift } });
  });

  it('a DNS record change names its record', async () => {
    const changes = await messages({ opcode: '0x4eb1f0f9' });
    for (const m of changes) expect(m.decoded_opcode).toBe('change_dns_record');
    // alice's name pointed at her v5r1 wallet at genesis (traffic edits records too, and a renewal has no value).
    const change = changes.find((m) => (decoded(m)?.value as { smc_addr?: string } | null)?.smc_addr === raw('wallet_v5r1'));
    expect(decoded(change!)).toMatchObject({ value: { '@type': 'dns_smc_address', smc_addr: raw('wallet_v5r1') } });
    expect(changes.some((m) => decoded(m)?.value === null)).toBe(true);
  });

  it('comments keep toncenter\'s back-compatible shape; encrypted ones are flagged, not decoded; unknown bodies stay null', async () => {
    const hello = (await messages({ opcode: '0', source: raw('alice') })).find((m) => (decoded(m)?.comment as string | undefined) === 'alice is here')!;
    expect(hello.decoded_opcode).toBe('text_comment');
    expect(decoded(hello)).toEqual({ '@type': 'text_comment', comment: 'alice is here', type: 'text_comment' });
    expect(Object.keys(decoded(hello)!)).toEqual(['@type', 'comment', 'type']);
    const unicode = (await messages({ opcode: '0', destination: raw('bob') })).find((m) => decoded(m)?.comment === GENESIS_TEXTS.unicode);
    expect(unicode).toBeDefined();

    const encrypted = (await messages({ opcode: '0x2167da4b' }))[0]!;
    expect(encrypted.decoded_opcode).toBe('encrypted_text_comment');
    expect(decoded(encrypted)).toEqual({ '@type': 'encrypted_text_comment', cipher_text: expect.stringMatching(/^[0-9a-f]+$/) });

    const binary = (await messages({ opcode: '0xdeadbeef' }))[0]!;
    expect(binary.decoded_opcode).toBeNull();
    expect(decoded(binary)).toBeNull();
  });
});

describe('/transactions', () => {
  it('in_msg and out_msgs carry the same decoding as /messages', async () => {
    const transfer = (await messages({ opcode: '0x0f8a7ea5', source: raw('alice') }))[0]!;
    const r = await chain.callV3<{ transactions: TransactionJson[] }>('transactions', { hash: transfer.in_msg_tx_hash! });
    expect(r.status).toBe(200);
    const tx = r.body.transactions[0]!;
    expect(tx.in_msg!.decoded_opcode).toBe('jetton_transfer');
    expect(tx.in_msg!.message_content!.decoded).toEqual(decoded(transfer));
    // The sender's jetton wallet passes the jettons on as an internal_transfer.
    const out = tx.out_msgs.find((m) => m.opcode === '0x178d4519')!;
    expect(out.decoded_opcode).toBe('jetton_internal_transfer');
    expect(out.message_content!.decoded).toMatchObject({ '@type': 'jetton_internal_transfer', amount: decoded(transfer)!.amount, from: raw('alice') });
    // Init states are never decoded.
    for (const m of [tx.in_msg!, ...tx.out_msgs]) expect(m.init_state?.decoded ?? null).toBeNull();
  });
});
