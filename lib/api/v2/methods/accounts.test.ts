import { createHash } from 'node:crypto';
import { ADNLAddress, Address, beginCell, Cell, loadShardAccount } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../testing/chain';
import { MODES, type Mode } from '../../../testing/api';

let chain: TestChain;
let last: number;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-accounts', rounds: 2 });
  last = chain.devnet.chain.lastSeqno;
});
afterAll(() => chain?.close());

const raw = (name: string) => chain.account(name).address;
const bounceable = (name: string) => chain.account(name).friendly.bounceable;
type Obj = Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ok(mode: Mode, method: string, params: Record<string, unknown>): Promise<Obj> {
  const r = await chain.callV2(mode, method, params);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ ok: true });
  expect(r.status).toBe(200);
  return r.body.result as Obj;
}

async function fails(mode: Mode, method: string, params: Record<string, unknown>, code: number, message?: RegExp) {
  const r = await chain.callV2(mode, method, params);
  expect(r.status, JSON.stringify(r.body)).toBe(code);
  expect(r.body).toMatchObject({ ok: false, code });
  if (message) expect(r.body.error).toMatch(message);
}

describe.each(MODES)('accounts over %s', (mode) => {
  it('getAddressInformation: an active wallet, with its code, data and the latest block', async () => {
    const r = await ok(mode, 'getAddressInformation', { address: bounceable('alice') });
    expect(r).toMatchObject({ '@type': 'raw.fullAccountState', state: 'active', frozen_hash: '', suspended: false, extra_currencies: [] });
    expect(r.balance).toMatch(/^[1-9]\d*$/);
    expect(Cell.fromBase64(r.code).hash()).toEqual(WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32) }).init.code.hash());
    expect(r.data).not.toBe('');
    expect(r.last_transaction_id).toMatchObject({ '@type': 'internal.transactionId' });
    expect(BigInt(r.last_transaction_id.lt)).toBeGreaterThan(0n);
    expect(Buffer.from(r.last_transaction_id.hash, 'base64')).toHaveLength(32);
    expect(r.block_id).toMatchObject({ '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno: last });
    expect(typeof r.sync_utime).toBe('number');
  });

  it('getAddressInformation: frozen and never-deployed accounts', async () => {
    const frozen = await ok(mode, 'getAddressInformation', { address: raw('frozen') });
    expect(frozen).toMatchObject({ state: 'frozen', code: '', data: '' });
    expect(Buffer.from(frozen.frozen_hash, 'base64')).toHaveLength(32);
    const uninit = await ok(mode, 'getAddressInformation', { address: raw('uninit_receiver') });
    expect(uninit).toMatchObject({ state: 'uninitialized', code: '', frozen_hash: '' });
    const none = await ok(mode, 'getAddressInformation', { address: `0:${'00'.repeat(32)}` });
    expect(none).toMatchObject({ state: 'uninitialized', balance: '0', last_transaction_id: { lt: '0', hash: Buffer.alloc(32).toString('base64') } });
  });

  it('getAddressInformation at an older seqno reads that block', async () => {
    const r = await ok(mode, 'getAddressInformation', { address: raw('alice'), seqno: 1 });
    expect(r.block_id.seqno).toBe(1);
  });

  it.each([
    ['no address', () => ({}), /address is required/],
    ['an invalid address', () => ({ address: 'invalid' }), /invalid address "invalid"/],
    ['a non-numeric seqno', () => ({ address: raw('alice'), seqno: 'invalid' }), /seqno: expected a masterchain seqno > 0/],
    ['seqno 0', () => ({ address: raw('alice'), seqno: 0 }), /seqno: expected a masterchain seqno > 0/],
  ])('getAddressInformation: 422 for %s', async (_, params, message) => {
    await fails(mode, 'getAddressInformation', params(), 422, message);
  });

  it('a seqno the chain has not reached is a lite server error (500) on every account route', async () => {
    for (const method of ['getAddressInformation', 'getExtendedAddressInformation', 'getWalletInformation', 'getAddressBalance', 'getAddressState']) {
      await fails(mode, method, { address: raw('alice'), seqno: last + 10000 }, 500);
    }
  });

  it('getExtendedAddressInformation recognises v3 and v4 wallets as tonlib does', async () => {
    const carol = await ok(mode, 'getExtendedAddressInformation', { address: raw('carol') });
    expect(carol).toMatchObject({
      '@type': 'fullAccountState',
      address: { '@type': 'accountAddress', account_address: bounceable('carol') },
      account_state: { '@type': 'wallet.v3.accountState', wallet_id: 698983191 },
      revision: 2,
    });
    expect(carol.account_state.seqno).toBeGreaterThan(0);
    const alice = await ok(mode, 'getExtendedAddressInformation', { address: raw('alice') });
    expect(alice.account_state).toMatchObject({ '@type': 'wallet.v4.accountState', wallet_id: 698983191 });
    const minter = await ok(mode, 'getExtendedAddressInformation', { address: raw('jetton_minter') });
    expect(minter.account_state['@type']).toBe('raw.accountState');
    expect(minter.account_state.code).not.toBe('');
    const uninit = await ok(mode, 'getExtendedAddressInformation', { address: raw('uninit_receiver') });
    expect(uninit.account_state).toEqual({ '@type': 'uninited.accountState', frozen_hash: '' });
    await fails(mode, 'getExtendedAddressInformation', {}, 422, /address is required/);
  });

  it.each([
    ['wallet_v1r1', 'wallet v1 r1', ['seqno']],
    ['wallet_v1r2', 'wallet v1 r2', ['seqno']],
    ['wallet_v1r3', 'wallet v1 r3', ['seqno']],
    ['wallet_v2r1', 'wallet v2 r1', ['seqno']],
    ['wallet_v2r2', 'wallet v2 r2', ['seqno']],
    ['wallet_v3r1', 'wallet v3 r1', ['seqno', 'wallet_id']],
    ['wallet_v3r2', 'wallet v3 r2', ['seqno', 'wallet_id']],
    ['wallet_v4r2', 'wallet v4 r2', ['seqno', 'wallet_id']],
    ['wallet_v5r1', 'wallet v5 r1', ['seqno', 'wallet_id', 'is_signature_allowed']],
  ])('getWalletInformation: %s is `%s`', async (name, type, fields) => {
    const r = await ok(mode, 'getWalletInformation', { address: bounceable(name) });
    expect(r).toMatchObject({ '@type': 'ext.accounts.walletInformation', wallet: true, wallet_type: type, account_state: 'active', extra_currencies: [] });
    for (const f of ['seqno', 'wallet_id', 'is_signature_allowed']) expect(f in r, f).toBe(fields.includes(f));
    expect(r.seqno).toBeGreaterThan(0);
    if (!type.startsWith('wallet v1')) {
      // The seqno in the data cell is the one the wallet's own get-method reports.
      const run = await ok(mode === 'get' ? 'post' : mode, 'runGetMethod', { address: raw(name), method: 'seqno', stack: [] });
      expect(run.stack).toEqual([['num', `0x${r.seqno.toString(16)}`]]);
    }
    if (fields.includes('is_signature_allowed')) expect(r).toMatchObject({ is_signature_allowed: true, wallet_id: 2147483409 });
    expect(r.balance).toBe(await ok(mode, 'getAddressBalance', { address: raw(name) }));
  });

  it('getWalletInformation: a v5 beta wallet, its data read as toncenter reads it', async () => {
    const r = await ok(mode, 'getWalletInformation', { address: bounceable('wallet_v5beta') });
    // The data of a fresh v5 beta wallet: seqno 0 as an int33 (sign bit 0: signatures enabled, which
    // toncenter shows as is_signature_allowed false), then the first 32 bits of its 80-bit wallet id.
    const data = Cell.fromBase64((await ok(mode, 'getAddressInformation', { address: raw('wallet_v5beta') })).data).beginParse();
    expect(data.loadInt(33)).toBe(0);
    const walletId = data.loadInt(32);
    expect(r).toEqual({
      '@type': 'ext.accounts.walletInformation',
      wallet: true,
      balance: expect.stringMatching(/^[1-9]\d*$/),
      extra_currencies: [],
      account_state: 'active',
      wallet_type: 'wallet v5 beta',
      seqno: 0,
      wallet_id: walletId,
      is_signature_allowed: false,
      last_transaction_id: expect.objectContaining({ '@type': 'internal.transactionId' }),
    });
    // The first 32 bits of a v5 beta wallet id are the network id, read signed: mainnet's -239.
    expect(walletId).toBe(-239);
  });

  it('getWalletInformation: highload, undeployed and non-wallet contracts are not wallets', async () => {
    for (const name of ['highload', 'uninit_receiver', 'jetton_minter', 'frozen']) {
      const r = await ok(mode, 'getWalletInformation', { address: raw(name) });
      expect(r.wallet, name).toBe(false);
      for (const f of ['wallet_type', 'seqno', 'wallet_id']) expect(f in r, `${name} ${f}`).toBe(false);
    }
    await fails(mode, 'getWalletInformation', { address: 'invalid' }, 422);
  });

  it('older seqnos show older states', async () => {
    // Traffic moved some wallets after block 1: each answer at block 1 is no newer than the latest one.
    let moved = 0;
    for (const name of ['alice', 'bob', 'carol', 'wallet_v3r2', 'wallet_v4r2', 'wallet_v5r1', 'faucet']) {
      const old = await ok(mode, 'getWalletInformation', { address: raw(name), seqno: 1 });
      const now = await ok(mode, 'getWalletInformation', { address: raw(name) });
      expect(BigInt(old.last_transaction_id.lt)).toBeLessThanOrEqual(BigInt(now.last_transaction_id.lt));
      if (old.last_transaction_id.lt !== now.last_transaction_id.lt) {
        moved++;
        expect(await ok(mode, 'getAddressBalance', { address: raw(name), seqno: 1 })).toBe(old.balance);
      }
    }
    expect(moved).toBeGreaterThan(0);
  });

  it('getAddressBalance and getAddressState answer bare strings', async () => {
    expect(await ok(mode, 'getAddressBalance', { address: raw('alice') })).toMatch(/^[1-9]\d*$/);
    expect(await ok(mode, 'getAddressBalance', { address: `0:${'00'.repeat(32)}` })).toBe('0');
    expect(await ok(mode, 'getAddressState', { address: chain.account('alice').friendly.nonBounceable })).toBe('active');
    expect(await ok(mode, 'getAddressState', { address: raw('frozen') })).toBe('frozen');
    expect(await ok(mode, 'getAddressState', { address: raw('uninit_receiver') })).toBe('uninitialized');
    expect(await ok(mode, 'getAddressState', { address: `0:${'00'.repeat(32)}` })).toBe('uninitialized');
    await fails(mode, 'getAddressBalance', {}, 422, /address is required/);
    await fails(mode, 'getAddressState', { address: raw('alice'), seqno: 'x' }, 422);
  });

  it('getShardAccountCell: the ShardAccount of the account', async () => {
    const r = await ok(mode, 'getShardAccountCell', { address: raw('bob') });
    expect(r['@type']).toBe('tvm.cell');
    const sa = loadShardAccount(Cell.fromBase64(r.bytes).beginParse());
    const info = await ok(mode, 'getAddressInformation', { address: raw('bob') });
    expect(sa.account?.addr.equals(Address.parse(raw('bob')))).toBe(true);
    expect(sa.account?.storage.balance.coins.toString()).toBe(info.balance);
    expect(sa.lastTransactionLt.toString()).toBe(info.last_transaction_id.lt);
    expect(Buffer.from(sa.lastTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64')).toBe(info.last_transaction_id.hash);
    const none = await ok(mode, 'getShardAccountCell', { address: `0:${'00'.repeat(32)}` });
    expect(loadShardAccount(Cell.fromBase64(none.bytes).beginParse()).account ?? null).toBeNull();
  });

  it('getTokenData: a jetton master', async () => {
    const r = await ok(mode, 'getTokenData', { address: bounceable('jetton_minter') });
    expect(r).toMatchObject({
      '@type': 'ext.tokens.jettonMasterData',
      contract_type: 'jetton_master',
      address: bounceable('jetton_minter'),
      mintable: true,
      admin_address: bounceable('admin'),
      jetton_content: { type: 'onchain', data: { name: 'Atlas Devnet Token', symbol: 'ATLAS', decimals: '9' } },
    });
    expect(r.total_supply).toMatch(/^[1-9]\d*$/);
    expect(Cell.fromBase64(r.jetton_wallet_code).bits.length).toBeGreaterThan(0);
  });

  it('getTokenData: a jetton wallet, verified against its master', async () => {
    const r = await ok(mode, 'getTokenData', { address: raw('alice_jetton') });
    expect(r).toMatchObject({
      '@type': 'ext.tokens.jettonWalletData',
      contract_type: 'jetton_wallet',
      address: raw('alice_jetton').toUpperCase(),
      owner: bounceable('alice'),
      jetton: bounceable('jetton_minter'),
    });
    expect(r.balance).toMatch(/^[1-9]\d*$/);
    expect('mintless_is_claimed' in r).toBe(false);
    const minter = await ok(mode, 'getTokenData', { address: raw('jetton_minter') });
    expect(r.jetton_wallet_code).toBe(minter.jetton_wallet_code);
  });

  it('getTokenData: an NFT collection and an item with its full content', async () => {
    const c = await ok(mode, 'getTokenData', { address: raw('nft_collection') });
    expect(c).toMatchObject({
      '@type': 'ext.tokens.nftCollectionData',
      contract_type: 'nft_collection',
      // Every card the genesis minted (items nft_item_0 … nft_item_N).
      next_item_index: String(chain.devnet.genesisAccounts.filter((a) => /^nft_item_\d+$/.test(a.name)).length),
      owner_address: bounceable('admin'),
      collection_content: { type: 'onchain', data: { name: 'Atlas Devnet Cards' } },
    });
    const item = await ok(mode, 'getTokenData', { address: bounceable('nft_item_0') });
    expect(item).toEqual({
      '@type': 'ext.tokens.nftItemData',
      address: bounceable('nft_item_0'),
      contract_type: 'nft_item',
      init: true,
      index: '0',
      collection_address: bounceable('nft_collection'),
      // alice gave item 0 to carol at genesis; traffic may have passed it on to another genesis wallet.
      owner_address: expect.any(String),
      content: { type: 'offchain', data: 'https://atlas.devnet/nft/0.json' },
    });
    expect(chain.devnet.genesisAccounts.map((a) => bounceable(a.name))).toContain(item.owner_address);
  });

  it('getTokenData: a DNS item shows its domain and records', async () => {
    const r = await ok(mode, 'getTokenData', { address: raw('alice.ton') });
    expect(r).toMatchObject({ contract_type: 'nft_item', collection_address: bounceable('dns_collection'), owner_address: bounceable('alice') });
    expect(r.content.domain).toBe('alice.ton');
    const hex = (name: string) => Address.parse(raw(name)).hash.toString('hex');
    // Genesis points alice.ton at wallet_v5r1; traffic may re-point names at other genesis wallets.
    expect(r.content.data.wallet).toMatchObject({ '@type': 'dns_smc_address', smc_addr: { '@type': 'addr_std', workchain_id: 0 } });
    const walletHexes = chain.devnet.genesisAccounts.map((a) => hex(a.name));
    expect(walletHexes).toContain(r.content.data.wallet.smc_addr.address);
    expect(r.content.data.dns_next_resolver).toEqual({ '@type': 'dns_next_resolver', resolver: { '@type': 'addr_std', workchain_id: 0, address: hex('alice.ton') } });
    expect(r.content.data.site['@type']).toBe('dns_adnl_address');
    expect(r.content.data.site.adnl_addr).toMatch(/^[0-9a-f]{64}$/);
    const atlas = await ok(mode, 'getTokenData', { address: raw('atlas.ton') });
    expect(atlas.content.data.site).toMatchObject({ '@type': 'dns_storage_address' });
    expect(atlas.content.data.site.bag_id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('getTokenData: a DNS item whose record is a storage bag', async () => {
    const r = await ok(mode, 'getTokenData', { address: raw('files.ton') });
    expect(r).toMatchObject({ contract_type: 'nft_item', collection_address: bounceable('dns_collection'), owner_address: bounceable('bob') });
    const storage = await chain.lite.provider(Address.parse(raw('files.ton'))).get('dnsresolve', [
      { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
      { type: 'int', value: BigInt(`0x${createHash('sha256').update('storage').digest('hex')}`) },
    ]);
    storage.stack.skip(1);
    const bag = storage.stack.readCell().beginParse().skip(16).loadBuffer(32).toString('hex');
    // (Traffic may have given it a wallet record since.)
    expect(r.content).toMatchObject({ domain: 'files.ton', data: { storage: { '@type': 'dns_storage_address', bag_id: bag } } });
    expect(Object.keys(r.content.data).filter((k) => k !== 'wallet')).toEqual(['storage']);
  });

  it('getTokenData: 409 for a wallet, 422 for bad input', async () => {
    await fails(mode, 'getTokenData', { address: raw('alice') }, 409, /is not Jetton or NFT/);
    await fails(mode, 'getTokenData', { address: raw('uninit_receiver') }, 409);
    await fails(mode, 'getTokenData', { address: 'invalid' }, 422);
    await fails(mode, 'getTokenData', {}, 422, /address is required/);
  });

  it('dnsResolve from the .ton collection: the next resolver, or with ttl the records', async () => {
    const step = await ok(mode, 'dnsResolve', { address: raw('dns_collection'), name: 'alice' });
    expect(step).toEqual({
      '@type': 'dns.resolved',
      entries: [
        {
          '@type': 'dns.entry',
          name: 'alice',
          category: (await import('@ton/crypto')).sha256_sync('dns_next_resolver').toString('base64'),
          entry: { '@type': 'dns.entryDataNextResolver', resolver: { '@type': 'accountAddress', account_address: bounceable('alice.ton') } },
        },
      ],
    });
    const full = await ok(mode, 'dnsResolve', { address: raw('dns_collection'), name: 'alice', ttl: 1 });
    // The records are those the item holds (getTokenData reads them from the item directly).
    const item = await ok(mode, 'getTokenData', { address: raw('alice.ton') });
    const wallet = full.entries.find((e: Obj) => e.entry['@type'] === 'dns.entryDataSmcAddress');
    expect(Address.parse(wallet.entry.smc_address.account_address).hash.toString('hex')).toBe(item.content.data.wallet.smc_addr.address);
    const site = full.entries.find((e: Obj) => e.entry['@type'] === 'dns.entryDataAdnlAddress');
    // tonlib shows ADNL addresses in their 55-character user-friendly form.
    expect(site.entry.adnl_address.adnl_address).toBe(new ADNLAddress(Buffer.from(item.content.data.site.adnl_addr, 'hex')).toString());
    const atlas = await ok(mode, 'dnsResolve', { address: raw('dns_collection'), name: 'atlas', ttl: 1, category: 'wallet' });
    const atlasItem = await ok(mode, 'getTokenData', { address: raw('atlas.ton') });
    expect(atlas.entries.find((e: Obj) => e.entry['@type'] === 'dns.entryDataStorageAddress').entry.bag_id).toBe(atlasItem.content.data.site.bag_id);
    // The item itself answers for its own name.
    const self = await ok(mode, 'dnsResolve', { address: raw('alice.ton'), name: '' });
    expect(self.entries).toHaveLength(3);
  });

  it('dnsResolve: 404 when a resolver on the way is not there', async () => {
    // The collection is the .ton zone: "alice.ton" asks it for the (unregistered) label "ton".
    await fails(mode, 'dnsResolve', { address: raw('dns_collection'), name: 'alice.ton', ttl: 1 }, 404, /the name does not resolve/);
    await fails(mode, 'dnsResolve', { address: raw('uninit_receiver'), name: 'alice' }, 404, /is uninitialized/);
    // A wallet is no resolver: the client asked the wrong contract.
    await fails(mode, 'dnsResolve', { address: raw('alice'), name: 'alice' }, 409, /is not a DNS resolver \(it has no dnsresolve get-method\)/);
  });

  it('dnsResolve: 422 for bad input', async () => {
    await fails(mode, 'dnsResolve', { name: 'alice' }, 422, /address is required/);
    await fails(mode, 'dnsResolve', { address: raw('dns_collection'), name: 'alice', ttl: -1 }, 422, /ttl/);
    await fails(mode, 'dnsResolve', { address: raw('dns_collection'), name: 'x'.repeat(200) }, 422, /name/);
  });
});
