// GET /vesting over a devnet indexed with the derive stage: the genesis vesting wallet as its get-methods
// answer (v2 runGetMethod runs them live at the head the index reached), its whitelist growing when the
// sender adds to it, the wallet_address / check_whitelist filters, paging and the route's 422s.
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { messageBoc, signedTransfer } from '../../../testing/devnet';
import { genesisWallet } from '../../../testing/wallets';
import { modelProblems } from '../../../testing/v3';
import { rawUpper } from '../../../ton/address';
import { type VestingInfoJson, VestingResponse } from '../models/vesting';

let chain: TestChain;
const raw = (a: string) => rawUpper(Address.parse(a));
const acc = (name: string) => raw(chain.account(name).address);

type Vesting = { vesting_contracts: VestingInfoJson[]; address_book: Record<string, unknown> };
type V2Entry = [string, unknown];
type Typed = { '@type': string; number?: { number: string }; tuple?: { elements: Typed[] } };

/** A get-method's answer through v2 runGetMethod, as the legacy stack entries it returns. */
async function getMethod(address: string, method: string): Promise<V2Entry[]> {
  const r = await chain.callV2('post', 'runGetMethod', { address, method, stack: [] });
  expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
  const result = r.body.result as { exit_code: number; stack: V2Entry[] };
  expect(result.exit_code).toBe(0);
  return result.stack;
}
const num = (e: V2Entry) => BigInt(e[1] as string);
const addrOf = (e: V2Entry) => {
  const a = Cell.fromBase64((e[1] as { bytes: string }).bytes).beginParse().loadMaybeAddress();
  return a ? rawUpper(a) : null;
};

/** get_whitelist's [workchain, hash] pairs (v2 renders the cons list as a flat 'list'), as raw addresses. */
async function liveWhitelist(address: string): Promise<string[]> {
  const [entry] = await getMethod(address, 'get_whitelist');
  expect(entry![0]).toBe('list');
  const pairs = (entry![1] as { elements: Typed[] }).elements;
  return pairs
    .map((p) => {
      const [wc, hash] = p.tuple!.elements.map((x) => BigInt(x.number!.number));
      return `${wc}:${hash!.toString(16).padStart(64, '0').toUpperCase()}`;
    })
    .sort();
}

const call = (query: Record<string, string | number | boolean | string[]>) => chain.callV3<Vesting>('vesting', query);
const addresses = async (query: Record<string, string | number | boolean | string[]>) => {
  const r = await call(query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.vesting_contracts.map((v) => v.address);
};

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v3-vesting', rounds: 1, index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

describe('GET /vesting', () => {
  it('the genesis vesting wallet as get_vesting_data and get_whitelist answer', async () => {
    const r = await call({ contract_address: chain.account('vesting').friendly.bounceable });
    expect(r.status).toBe(200);
    expect(modelProblems(r.body, VestingResponse)).toEqual([]);
    expect(r.body.vesting_contracts).toHaveLength(1);
    const v = r.body.vesting_contracts[0]!;
    const live = await getMethod(v.address, 'get_vesting_data');
    expect(v).toEqual({
      address: acc('vesting'),
      start_time: Number(num(live[0]!)),
      total_duration: Number(num(live[1]!)),
      unlock_period: Number(num(live[2]!)),
      cliff_duration: Number(num(live[3]!)),
      total_amount: num(live[4]!).toString(),
      sender_address: addrOf(live[5]!),
      owner_address: addrOf(live[6]!),
      whitelist: await liveWhitelist(v.address),
    });
    // What genesis deployed: 1000 TON over 48 months of 30 days, monthly, after a 3-month cliff, alice's.
    expect(v).toMatchObject({ total_amount: toNano('1000').toString(), total_duration: 48 * 30 * 86400, unlock_period: 30 * 86400, cliff_duration: 90 * 86400 });
    expect([v.owner_address, v.sender_address]).toEqual([acc('alice'), acc('admin')]);
    for (const a of [v.address, v.owner_address!, v.sender_address!, ...v.whitelist]) expect(Object.keys(r.body.address_book)).toContain(a);
  });

  it('whitelist additions by the sender appear as get_whitelist answers; wallet_address finds owner, sender and (with check_whitelist) members', async () => {
    const admin = await genesisWallet(chain, 'admin');
    const vesting = Address.parse(chain.account('vesting').address);
    const added = [Address.parse(chain.account('bob').address), Address.parse(chain.account('wallet_v4r2').address)];
    // add_whitelist#7258a69b query_id:uint64 addr:MsgAddress, further addresses in a chain of refs.
    const body = beginCell().storeUint(0x7258a69b, 32).storeUint(5, 64).storeAddress(added[0]).storeRef(beginCell().storeAddress(added[1])).endCell();
    const msg = await signedTransfer(admin, [{ to: vesting, value: toNano('0.1'), bounce: true, body }]);
    expect((await chain.callV2('post', 'sendBoc', { boc: messageBoc(msg).toString('base64') })).status).toBe(200);
    await chain.seal();

    const [v] = (await call({ contract_address: acc('vesting') })).body.vesting_contracts;
    const live = await liveWhitelist(acc('vesting'));
    expect(live).toEqual(expect.arrayContaining(added.map((a) => rawUpper(a))));
    expect(v!.whitelist).toEqual(live);

    expect(await addresses({ wallet_address: acc('alice') })).toEqual([acc('vesting')]);
    expect(await addresses({ wallet_address: chain.account('admin').friendly.nonBounceable })).toEqual([acc('vesting')]);
    expect(await addresses({ wallet_address: acc('bob') })).toEqual([]);
    expect(await addresses({ wallet_address: acc('bob'), check_whitelist: true })).toEqual([acc('vesting')]);
    expect(await addresses({ wallet_address: [acc('bob'), acc('alice')], check_whitelist: true })).toEqual([acc('vesting')]);
    // An address no genesis or test traffic whitelists.
    expect(await addresses({ wallet_address: `0:${'CD'.repeat(32)}`, check_whitelist: true })).toEqual([]);
    const r = await call({ wallet_address: acc('bob'), check_whitelist: true });
    expect(Object.keys(r.body.address_book)).toEqual(expect.arrayContaining([acc('vesting'), acc('alice'), acc('admin'), acc('bob'), acc('wallet_v4r2')]));
  });

  it('pages by limit and offset', async () => {
    expect(await addresses({ contract_address: acc('vesting'), limit: 1 })).toEqual([acc('vesting')]);
    expect(await addresses({ contract_address: acc('vesting'), offset: 1 })).toEqual([]);
    expect(await addresses({ contract_address: [acc('vesting'), acc('alice')] })).toEqual([acc('vesting')]);
  });

  it('422 without a filter, with both, and for a bad address or limit', async () => {
    const cases: [Record<string, string | number>, RegExp][] = [
      [{}, /^at least one of contract_address or wallet_address is required$/],
      [{ contract_address: acc('vesting'), wallet_address: acc('alice') }, /^only one of contract_address or wallet_address should be specified$/],
      [{ contract_address: 'not-an-address' }, /contract_address/],
      [{ wallet_address: acc('alice'), limit: 1001 }, /^limit is not allowed: 1001 > 1000$/],
    ];
    for (const [query, message] of cases) {
      const r = await chain.callV3<{ error: string }>('vesting', query);
      expect(r.status, JSON.stringify(query)).toBe(422);
      expect(r.body.error).toMatch(message);
    }
  });
});
