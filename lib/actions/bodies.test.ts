// The body table: bodies built by the devnet's own message builders, and every standard token body of
// the mainnet fixture traces, read back field by field.
import fs from 'node:fs';
import path from 'node:path';
import { Address, beginCell, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { BodyNotDecoded, decodeBodyCell, opcodeName, OPS } from './bodies';
import { bocBase64 } from './cells';
import { readBurnNotification, readInternalTransfer, readNotify, readTransfer } from './protocols/jettons';
import { encryptedCommentBody, textCommentBody } from '../devnet/contracts/common';
import { DNS_CATEGORY, dnsChangeRecordBody } from '../devnet/contracts/dns';
import { jettonBurnBody, jettonTransferBody } from '../devnet/contracts/jetton';
import { nftTransferBody } from '../devnet/contracts/nft';

const ALICE = Address.parse(`0:${'a1'.repeat(32)}`);
const BOB = Address.parse(`-1:${'b0'.repeat(32)}`);
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

describe('bodies built by the devnet builders', () => {
  it('jetton transfer with a comment in its forward payload', () => {
    const body = jettonTransferBody({ amount: 12_345_000_000n, destination: BOB, responseDestination: ALICE, forwardTonAmount: 1n, forwardPayload: textCommentBody('Thanks ☕'), queryId: 7n });
    expect(decodeBodyCell(body)).toEqual({
      '@type': 'jetton_transfer',
      query_id: '7',
      amount: '12345000000',
      destination: raw(BOB),
      response_destination: raw(ALICE),
      custom_payload: null,
      forward_ton_amount: '1',
      forward_payload: { '@type': 'text_comment', text: 'Thanks ☕' },
    });
  });

  it('jetton burn, with its field order kept', () => {
    const d = decodeBodyCell(jettonBurnBody({ amount: 1000n, responseDestination: ALICE, queryId: 9n }));
    expect(Object.keys(d)).toEqual(['@type', 'query_id', 'amount', 'response_destination', 'custom_payload']);
    expect(d).toMatchObject({ '@type': 'jetton_burn', query_id: '9', amount: '1000', response_destination: raw(ALICE) });
  });

  it('NFT transfer without a forward payload, and with one that is no known body (kept as its BoC)', () => {
    const plain = decodeBodyCell(nftTransferBody({ newOwner: BOB, responseDestination: null, forwardAmount: 5n }));
    expect(plain).toMatchObject({ '@type': 'nft_transfer', new_owner: raw(BOB), response_destination: null, forward_amount: '5', forward_payload: { '@type': 'empty_cell' } });
    const opaque = beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 8).endCell();
    const withPayload = decodeBodyCell(nftTransferBody({ newOwner: BOB, responseDestination: ALICE, forwardPayload: opaque }));
    expect(withPayload.forward_payload).toBe(bocBase64(opaque));
  });

  it('DNS change_dns_record with every record kind, and a deletion', () => {
    const adnl = Buffer.alloc(32, 0xad);
    const bag = Buffer.alloc(32, 0x7a);
    const cases = [
      [{ type: 'smc_address', address: ALICE }, { '@type': 'dns_smc_address', smc_addr: raw(ALICE), flags: 0 }],
      [{ type: 'adnl_address', adnl }, { '@type': 'dns_adnl_address', adnl_addr: adnl.toString('hex'), flags: 0 }],
      [{ type: 'storage_address', bagId: bag }, { '@type': 'dns_storage_address', bag_id: bag.toString('hex') }],
      [{ type: 'next_resolver', address: BOB }, { '@type': 'dns_next_resolver', resolver: raw(BOB) }],
    ] as const;
    for (const [record, value] of cases) {
      const d = decodeBodyCell(dnsChangeRecordBody({ category: DNS_CATEGORY.wallet, record, queryId: 3n }));
      expect(d).toEqual({ '@type': 'change_dns_record', query_id: '3', key: DNS_CATEGORY.wallet.toString(16).padStart(64, '0'), value });
    }
    expect(decodeBodyCell(dnsChangeRecordBody({ category: DNS_CATEGORY.site, record: null })).value).toBeNull();
  });

  it('comments: text across snake cells, encrypted flagged and left as bytes, empty cell', () => {
    const long = 'x'.repeat(300) + ' — ✅';
    expect(decodeBodyCell(textCommentBody(long))).toEqual({ '@type': 'text_comment', text: long });
    const cipher = Buffer.alloc(80, 0x42);
    expect(decodeBodyCell(encryptedCommentBody(cipher))).toEqual({ '@type': 'encrypted_text_comment', cipher_text: cipher.toString('hex') });
    expect(decodeBodyCell(Cell.EMPTY)).toEqual({ '@type': 'empty_cell' });
  });

  it('a text longer than 64 KiB is cut at a character boundary, after reading no more cells than that', () => {
    const long = '€'.repeat(30_000); // 90,000 bytes
    const text = decodeBodyCell(textCommentBody(long)).text as string;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024 - 3);
    expect(long.startsWith(text)).toBe(true);
  });

  it('unknown opcodes and bodies that do not fit their layout are refused with the reason', () => {
    expect(() => decodeBodyCell(beginCell().storeUint(0xdeadbeef, 32).endCell())).toThrow(new BodyNotDecoded('unknown opcode 0xdeadbeef'));
    expect(() => decodeBodyCell(beginCell().storeUint(7, 8).endCell())).toThrow(/^unknown body/);
    expect(() => decodeBodyCell(beginCell().storeUint(OPS.jetton_transfer, 32).storeUint(1, 16).endCell())).toThrow(/^invalid jetton_transfer body/);
    // Invalid UTF-8 is not a text comment.
    expect(() => decodeBodyCell(beginCell().storeUint(0, 32).storeBuffer(Buffer.from([0xff, 0xfe])).endCell())).toThrow(BodyNotDecoded);
  });

  it('payloads nested in payloads are decoded to a bounded depth, then left as BoC', () => {
    let cell = textCommentBody('core');
    for (let i = 0; i < 20; i++) cell = jettonTransferBody({ amount: BigInt(i), destination: BOB, responseDestination: null, forwardPayload: cell });
    let d: unknown = decodeBodyCell(cell);
    let levels = 0;
    while (typeof d === 'object' && d !== null && (d as Record<string, unknown>)['@type'] === 'jetton_transfer') {
      d = (d as Record<string, unknown>).forward_payload;
      levels++;
    }
    expect(levels).toBeGreaterThan(3);
    expect(levels).toBeLessThan(20);
    expect(typeof d).toBe('string'); // the undecoded rest, as a BoC
    expect(Cell.fromBase64(d as string).beginParse().loadUint(32)).toBe(OPS.jetton_transfer);
  });

  it('names opcodes given signed or unsigned', () => {
    expect(opcodeName(0x0f8a7ea5)).toBe('jetton_transfer');
    expect(opcodeName(0xd53276db)).toBe('excess');
    expect(opcodeName(0xd53276db | 0)).toBe('excess');
    expect(opcodeName(0)).toBe('text_comment');
    expect(opcodeName(0x12345678)).toBeNull();
    expect(opcodeName(null)).toBeNull();
  });
});

describe('mainnet bodies from the fixture traces', () => {
  const DIR = path.join(__dirname, '../testing/fixtures/ton-actions/traces');
  // Every message body of every trace, with its opcode.
  const bodies = fs.readdirSync(DIR).flatMap((f) => {
    const doc = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as { transactions: { messages: { opcode: number | null; message_content?: { body?: string } }[] }[] };
    return doc.transactions.flatMap((t) => t.messages.flatMap((m) => (m.message_content?.body && m.opcode !== null ? [{ op: m.opcode >>> 0, cell: Cell.fromBase64(m.message_content.body) }] : [])));
  });
  const withOp = (op: number) => bodies.filter((b) => b.op === op).map((b) => b.cell);

  it('every standard jetton body decodes, and agrees with the classifier readers', () => {
    const transfers = withOp(OPS.jetton_transfer);
    expect(transfers.length).toBeGreaterThan(20);
    for (const c of transfers) {
      const d = decodeBodyCell(c);
      const t = readTransfer(c.beginParse());
      expect(d).toMatchObject({ '@type': 'jetton_transfer', query_id: String(t.queryId), amount: String(t.amount), destination: t.destination, response_destination: t.response });
    }
    for (const c of withOp(OPS.jetton_internal_transfer)) {
      const i = readInternalTransfer(c.beginParse());
      expect(decodeBodyCell(c)).toMatchObject({ '@type': 'jetton_internal_transfer', amount: String(i.amount), from: i.from });
    }
    for (const c of withOp(OPS.jetton_notify)) {
      const n = readNotify(c.beginParse());
      expect(decodeBodyCell(c)).toMatchObject({ '@type': 'jetton_notify', amount: String(n.amount), sender: n.sender });
    }
    // Some mainnet wallets end burn_notification before response_destination: read as none.
    const burns = withOp(OPS.jetton_burn_notification);
    expect(burns.some((c) => decodeBodyCell(c).response_destination === null)).toBe(true);
    for (const c of burns) {
      const n = readBurnNotification(c.beginParse());
      expect(decodeBodyCell(c)).toMatchObject({ '@type': 'jetton_burn_notification', amount: String(n.amount), sender: n.sender, response_destination: n.response });
    }
    for (const c of withOp(OPS.excess)) expect(decodeBodyCell(c)['@type']).toBe('excess');
  });

  it('pTON transfers of DEX swaps decode', () => {
    const pton = withOp(OPS.pton_ton_transfer);
    expect(pton.length).toBeGreaterThan(0);
    for (const c of pton) expect(decodeBodyCell(c)).toMatchObject({ '@type': 'pton_ton_transfer', ton_amount: expect.stringMatching(/^\d+$/) });
  });

  it('every NFT transfer and ownership_assigned decodes', () => {
    const nft = [...withOp(OPS.nft_transfer), ...withOp(OPS.nft_ownership_assigned)];
    expect(nft.length).toBeGreaterThan(0);
    for (const c of nft) expect(['nft_transfer', 'nft_ownership_assigned']).toContain(decodeBodyCell(c)['@type']);
  });

  it('text comments decode to their text', () => {
    const comments = withOp(0).filter((c) => c.bits.length > 32);
    expect(comments.length).toBeGreaterThan(0);
    const texts = comments.flatMap((c) => {
      try {
        return [decodeBodyCell(c).text];
      } catch {
        return []; // binary "comments" (not UTF-8) are not text
      }
    });
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(typeof t).toBe('string');
  });
});
