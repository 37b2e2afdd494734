// Body decoders on real mainnet bodies from the fixture traces.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bocBase64, readComment } from './cells';
import { actionDetails } from './details';
import { traceFromDocument } from './fixture';
import { classify } from './classify';
import { readSwapEvent } from './protocols/dedust';
import { readInternalTransfer, readNotify, readTransfer } from './protocols/jettons';
import { buildTree, type Node } from './tree';
import { intendedMessages } from './wallet';

const DIR = path.join(__dirname, '../testing/fixtures/ton-actions/traces');

function load(id: string) {
  return traceFromDocument(JSON.parse(fs.readFileSync(path.join(DIR, `${id}.json`), 'utf8')));
}
function nodes(id: string): Node[] {
  return buildTree(load(id).trace.transactions).nodes;
}
const withOp = (id: string, op: number) => nodes(id).filter((n) => n.opcode === op);

describe('jetton bodies', () => {
  const swap = '01SkGWslZ8iEn3bXyb0ga5dWB5gRzw8zWAuwfUI4ZMA=';
  it('reads a transfer with its forward payload', () => {
    const t = readTransfer(withOp(swap, 0x0f8a7ea5)[0]!.body());
    expect(t.amount).toBe(1000000000n);
    expect(t.destination).toBe('0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E');
    expect(t.forwardPayload).not.toBeNull();
  });
  it('reads internal_transfer and transfer_notification', () => {
    const i = readInternalTransfer(withOp(swap, 0x178d4519)[0]!.body());
    expect(i.amount).toBe(1000000000n);
    expect(i.from).toBe('0:49E60973E9A8F252D986DDB49895A0D7419A077891E4CA6B66D4664ED06AB8DC');
    const n = readNotify(withOp(swap, 0x7362d09c)[0]!.body());
    expect(n.sender).toBe('0:49E60973E9A8F252D986DDB49895A0D7419A077891E4CA6B66D4664ED06AB8DC');
  });
});

describe('dedust swap event', () => {
  it('reads both assets and amounts of a hop', () => {
    const logs = nodes('c8jOrHqyuJe1hMGx4fm1BTGKXgBQ5O35rbExCkhmRG8=').filter((n) => n.kind === 'log' && n.opcode === 0x9c610de3);
    expect(readSwapEvent(logs[0]!)).toEqual({
      asset_in: '0:896E9D240693F03E8046F94E42F9C59F3FF8E792CBE8B467C0ACF179D10F508A',
      asset_out: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
      amount_in: 185867644473n,
      amount_out: 14787435n,
    });
  });
});

describe('wallet requests', () => {
  it('reads the intended messages of a v5 request that sent nothing', () => {
    const root = nodes('S4XM4TRqBSWvsrGUQY_NLEbIRM7q7iS6hx-uWg4Hv14=')[0]!;
    const msgs = intendedMessages(root.cell!);
    expect(msgs).toHaveLength(2);
    expect(msgs[0]!.destination).toBe('0:736970BE2E90397FD41BE40718348C6D238FC1705D657D2452B95E5DB8725487');
    expect(msgs[0]!.opcode).toBe(0x0f8a7ea5);
  });
  it('reads a v3/v4 request and its comment', () => {
    const root = nodes('Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ--D-3E=')[0]!;
    const [m] = intendedMessages(root.cell!);
    expect(m!.value).toBe(17192063n);
    expect(readComment(m!.body.beginParse())).toEqual({ comment: '109872119', encrypted: false });
  });
});

describe('BoC strings', () => {
  it('prints a forward payload as toncenter does (with CRC32-C)', () => {
    const t = readTransfer(intendedMessages(nodes('S4XM4TRqBSWvsrGUQY_NLEbIRM7q7iS6hx-uWg4Hv14=')[0]!.cell!)[0]!.body.beginParse());
    expect(bocBase64(t.forwardPayload!)).toBe('te6cckEBAQEACAAADAAAAAAxMb6Vqnw=');
  });
});

describe('v3 details', () => {
  it('maps a jetton swap record to api-v3 §3.7 keys with string amounts', () => {
    const { trace, interfaces } = load('p1-SZ1wV7yEe2qf1SQujTW5OMifEPuuX-jPPrPNiKxw=');
    const swap = classify(trace, interfaces).find((a) => a.type === 'jetton_swap')!;
    const d = actionDetails(swap);
    expect(d).toMatchObject({ dex: 'coffee', asset_in: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', asset_out: null, peer_swaps: [] });
    expect((d.dex_incoming_transfer as { amount: string }).amount).toBe('5489694');
  });

  const details = (id: string, type: string) => {
    const { trace, interfaces } = load(id);
    return actionDetails(classify(trace, interfaces).find((a) => a.type === type)!);
  };

  it('names the parts of protocol actions: tgBTC mint, LayerZero send, EVAA withdraw, coffee pool creation', () => {
    expect(details('1OrxQbhicqml435pt0GPrXePkkdTGXRMlNJ4q67UZ-M=', 'tgbtc_mint')).toEqual({
      source: '0:22FC2803EA3937A8392ED47B03CAA604377875B13435193AD316FD35DE458289',
      destination: '0:22FC2803EA3937A8392ED47B03CAA604377875B13435193AD316FD35DE458289',
      amount: '8800',
      asset: '0:E8CB571401B1AADB9DEFC1FA0F72A4A5A0E0D5016903067891D763C91541E72B',
      bitcoin_tx_id: 'c8254c7852b5e94c78f1667c29784a760e27c23c3cbf389705184944b4fa0716',
      destination_wallet: '0:6E62CDCC324B37B0FA201A2483E588E57E30333784BF277BECFB66E0126CAA9D',
    });
    const send = details('KEbatIe0U3ZHIx6sYTg4O1tgYP9L6hMiHJ8nNnZdyBE=', 'layerzero_send_tokens');
    expect(send).toMatchObject({ amount: '10000', oapp: '0:170725394AA56136FBD27D0CE31D8A98E0F8AE72A4D2379B5DDE83E211A2D5FA' });
    expect(send.layerzero_send_data).toMatchObject({ send_request_id: 531, native_fee: 170162108, zro_fee: 0 });
    expect(send.layerzero_packet_data).toMatchObject({ src_eid: 30343, dst_eid: 30101, nonce: 517 });
    expect(JSON.parse(JSON.stringify(send))).toEqual(send);
    expect(details('0CHtYFyuAUpk75hWntPKTfF2qcVEfOXnt4BCzfzXD2w=', 'evaa_withdraw')).toMatchObject({
      fail_reason: 'withdraw_no_funds_excess',
      amount: '1628764327',
      owner_contract: '0:3940379060541039C7ECF572FB42C8DF1758EFD302E50288D6047C69C384E91D',
    });
    expect(details('3uecEX5TvThuugPaMO4MqlOxGGHRQpNRErwAP7fL7J4=', 'coffee_create_pool')).toMatchObject({
      pool: '0:8FE5F74378278AB42C80772AF2551A0ECE02C599DACB115BA1C1F2F9678521ED',
      pool_creator_contract: '0:EB7B7155CEE154FAB8EAB90E3234D5EB6B3E659F2A2FE86E4B88516D261EDF7A',
      amount_1: '2345368713954',
      amount_2: '171205371318',
      lp_tokens_minted: '633671618650',
    });
  });
});
