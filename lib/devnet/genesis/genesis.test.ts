import { beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, internal, toNano, type Transaction } from '@ton/core';
import { Blockchain, type BlockchainTransaction } from '@ton/sandbox';
import { readOnchainContent, readTextComment, textCommentBody } from '../contracts/common';
import { VESTING_WALLET_ID_BASE, vestingExternal } from '../contracts/vesting';
import { DNS_CATEGORY, dnsInternalName, dnsItemIndex, parseDnsRecord } from '../contracts/dns';
import { JETTON_MINTER_UNKNOWN_OP_EXIT, OP_JETTON_TRANSFER_NOTIFICATION, readJettonContent } from '../contracts/jetton';
import { createWallet, v5r1WalletId, WALLET_KINDS } from '../contracts/wallets';
import { canRunCode, sandboxDriver } from './driver';
import {
  GENESIS_FUNDING,
  GENESIS_JETTON,
  GENESIS_AUCTION,
  GENESIS_JETTON_AMOUNTS as A,
  GENESIS_JETTON2_AMOUNTS as J2,
  GENESIS_MULTISIG,
  GENESIS_OFFCHAIN_JETTON_URI,
  GENESIS_QUERY_IDS,
  GENESIS_SOLD_SALE,
  GENESIS_STABLECOIN,
  GENESIS_STORAGE_DOMAIN,
  GENESIS_TEXTS,
  GENESIS_TOTAL_SUPPLY,
  GENESIS_WALLETS,
  genesisAddress,
  runGenesis,
  writeGenesisFile,
  type GenesisAccount,
} from './genesis';
import { seedBytes } from './keys';
import { readAuctionData } from '../../ton/nft-getters';
import { jettonTransferBody } from '../contracts/jetton';
import {
  STABLECOIN_EXIT,
  stablecoinChangeAdminBody,
  stablecoinChangeMetadataUriBody,
  stablecoinClaimAdminBody,
} from '../contracts/stablecoin';
import { WalletHandle } from './wallet-handle';
import { parseMultisigOrder, readMultisigData, readOrderData } from '../../ton/multisig';

const SEED = 'atlas-genesis-test';

async function freshChain(): Promise<Blockchain> {
  const bc = await Blockchain.create();
  bc.now = Math.floor(Date.now() / 1000); // devnet time follows the wall clock
  return bc;
}

type Driver = ReturnType<typeof sandboxDriver>;

let bc: Blockchain;
let driver: Driver;
let accounts: GenesisAccount[];
let genesisMs = 0;

const addr = (name: string) => genesisAddress(accounts, name);

function txsOn(a: Address): BlockchainTransaction[] {
  return driver.transactions.filter((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(a));
}

function compute(t: Transaction): { type: 'vm'; exitCode: number } | { type: 'skipped'; reason: string } | null {
  if (t.description.type !== 'generic') return null;
  const c = t.description.computePhase;
  return c.type === 'vm' ? { type: 'vm', exitCode: c.exitCode } : { type: 'skipped', reason: c.reason };
}

async function get(a: Address, method: string, args: Parameters<Blockchain['runGetMethod']>[2] = []) {
  return (await bc.runGetMethod(a, method, args)).stackReader;
}

beforeAll(async () => {
  bc = await freshChain();
  driver = sandboxDriver(bc);
  const t = performance.now();
  accounts = await runGenesis(driver, { seed: SEED });
  genesisMs = performance.now() - t;
  console.log(`genesis: ${genesisMs.toFixed(0)} ms (incl. DNS compile), ${driver.transactions.length} transactions, ${accounts.length} accounts`);
});

describe('genesis accounts', () => {
  it('lists every named account once with its kind and address forms', () => {
    const names = accounts.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    const kinds = new Set(accounts.map((a) => a.kind));
    for (const k of [...WALLET_KINDS, 'faucet', 'highload_wallet_v3', 'jetton_minter', 'jetton_wallet', 'nft_collection', 'nft_item', 'nft_sale', 'nft_auction', 'dns_collection', 'dns_item', 'vesting', 'uninit', 'nonexist', 'frozen']) {
      expect(kinds, k).toContain(k);
    }
    for (const a of accounts) {
      const parsed = Address.parseRaw(a.address);
      expect(parsed.toRawString()).toBe(a.address);
      expect(Address.parse(a.friendly.bounceable).equals(parsed)).toBe(true);
      expect(Address.parseFriendly(a.friendly.nonBounceable).isBounceable).toBe(false);
    }
    expect(Address.parseRaw(accounts.find((a) => a.name === 'master_wallet')!.address).workChain).toBe(-1);
  });

  it('keeps the declared total supply on chain (faucet + everything funded from it, minus fees)', async () => {
    let sum = 0n;
    for (const a of accounts) sum += (await bc.getContract(Address.parseRaw(a.address))).balance;
    expect(sum).toBeLessThanOrEqual(GENESIS_TOTAL_SUPPLY);
    expect(sum).toBeGreaterThan(GENESIS_TOTAL_SUPPLY - toNano('100'));
    const faucet = await bc.getContract(addr('faucet'));
    expect(faucet.balance).toBeGreaterThanOrEqual(2n ** 56n);
    expect(faucet.balance).toBeLessThanOrEqual(2n ** 57n);
  });

  it('deploys every wallet: active, balance near its funding, seqno and wallet ids answer', async () => {
    for (const w of GENESIS_WALLETS) {
      const a = addr(w.name);
      const c = await bc.getContract(a);
      const funded = GENESIS_FUNDING[w.name];
      const spent = w.name === 'admin' ? toNano('1001') : 0n; // admin funds the vesting wallet
      expect(c.balance, w.name).toBeLessThanOrEqual(funded - spent + toNano('20'));
      expect(c.balance, w.name).toBeGreaterThan(funded - spent - toNano('20'));
      expect(c.accountState?.type, w.name).toBe('active');
      if (w.kind === 'wallet_v5beta') continue; // it cannot run here: see the next test
      if (w.kind === 'highload_wallet_v3') {
        expect((await get(a, 'get_subwallet_id')).readNumber()).toBe(0x10ad);
        expect((await get(a, 'get_timeout')).readNumber()).toBe(3600);
        continue;
      }
      if (w.kind === 'wallet_v1r1') {
        // v1r1 has no get-methods: its seqno is the first 32 bits of its data.
        const st = c.accountState;
        expect(st?.type === 'active' && st.state.data!.beginParse().loadUint(32)).toBeGreaterThanOrEqual(1);
        continue;
      }
      expect((await get(a, 'seqno')).readNumber(), w.name).toBeGreaterThanOrEqual(1);
      if (w.kind === 'wallet_v5r1') {
        expect((await get(a, 'get_subwallet_id')).readNumber() | 0).toBe(v5r1WalletId(w.workchain));
      }
      if (w.kind !== 'wallet_v1r2' && w.kind !== 'wallet_v2r1' && w.kind !== 'wallet_v3r1') {
        const pk = (await get(a, 'get_public_key')).readBigNumber();
        const secret = Buffer.from(accounts.find((x) => x.name === w.name)!.secret_key_hex!, 'hex');
        expect(pk.toString(16).padStart(64, '0')).toBe(secret.subarray(32).toString('hex'));
      }
    }
  });

  it('writes the genesis file', async () => {
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = (await import('node:path')).join(await mkdtemp((await import('node:path')).join(tmpdir(), 'genesis-')), 'genesis.json');
    await writeGenesisFile(path, accounts);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(accounts);
  });
});

describe('jetton', () => {
  it('get_jetton_data: supply = minted - burned, on-chain metadata', async () => {
    const r = await get(addr('jetton_minter'), 'get_jetton_data');
    expect(r.readBigNumber()).toBe(A.mintAlice + A.mintBob - A.bobBurn);
    expect(r.readBigNumber()).not.toBe(0n); // mintable
    expect(r.readAddress().equals(addr('admin'))).toBe(true);
    const meta = readJettonContent(r.readCell());
    expect(meta).toEqual(GENESIS_JETTON);
  });

  it('get_wallet_data balances and get_wallet_address', async () => {
    const expected: Record<string, [string, bigint]> = {
      alice_jetton: ['alice', A.mintAlice - A.aliceToCarol + A.bobToAlice],
      bob_jetton: ['bob', A.mintBob - A.bobToAlice - A.bobBurn - GENESIS_MULTISIG.atlasIn],
      carol_jetton: ['carol', A.aliceToCarol + GENESIS_MULTISIG.atlasToCarol],
      multisig_jetton: ['multisig', GENESIS_MULTISIG.atlasIn - GENESIS_MULTISIG.atlasToCarol],
    };
    for (const [name, [owner, balance]] of Object.entries(expected)) {
      const r = await get(addr(name), 'get_wallet_data');
      expect(r.readBigNumber(), name).toBe(balance);
      expect(r.readAddress().equals(addr(owner))).toBe(true);
      expect(r.readAddress().equals(addr('jetton_minter'))).toBe(true);
      const w = await get(addr('jetton_minter'), 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(addr(owner)).endCell() }]);
      expect(w.readAddress().equals(addr(name))).toBe(true);
    }
  });

  it('transfer notifications carry the text comments', () => {
    const notes = txsOn(addr('carol'))
      .map((t) => t.inMessage!.body.beginParse())
      .filter((s) => s.remainingBits >= 32 && s.preloadUint(32) === OP_JETTON_TRANSFER_NOTIFICATION);
    expect(notes).toHaveLength(1);
    const s = notes[0];
    s.skip(32 + 64);
    expect(s.loadCoins()).toBe(A.aliceToCarol);
    expect(s.loadAddress().equals(addr('alice'))).toBe(true);
    const payload = s.loadBit() ? s.loadRef() : s.asCell();
    expect(readTextComment(payload)).toBe(GENESIS_TEXTS.jettonToCarol);
  });

  it('an unknown op aborts the minter compute phase (exit 0xffff) and bounces to admin', () => {
    const aborted = txsOn(addr('jetton_minter')).filter((t) => {
      const c = compute(t);
      return c?.type === 'vm' && c.exitCode === JETTON_MINTER_UNKNOWN_OP_EXIT;
    });
    expect(aborted).toHaveLength(1);
    expect(aborted[0].description.type === 'generic' && aborted[0].description.aborted).toBe(true);
    const back = txsOn(addr('admin')).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced);
    expect(back.length).toBeGreaterThanOrEqual(1);
  });
});

describe('NFT', () => {
  it('items have the expected owners after the transfer and the sale', async () => {
    const owners = { nft_item_0: 'carol', nft_item_1: 'nft_sale', nft_item_2: 'bob' };
    for (const [item, owner] of Object.entries(owners)) {
      const r = await get(addr(item), 'get_nft_data');
      expect(r.readBoolean()).toBe(true);
      r.readBigNumber(); // index
      expect(r.readAddress().equals(addr('nft_collection'))).toBe(true);
      expect(r.readAddress().equals(addr(owner)), item).toBe(true);
    }
    const c = await get(addr('nft_collection'), 'get_collection_data');
    expect(c.readNumber()).toBe(5); // items 3 and 4 were minted for the auction and the sold sale
    expect(readOnchainContent(c.readCell(), ['name']).name).toBe('Atlas Devnet Cards');
    const byIndex = await get(addr('nft_collection'), 'get_nft_address_by_index', [{ type: 'int', value: 2n }]);
    expect(byIndex.readAddress().equals(addr('nft_item_2'))).toBe(true);
  });

  it('the sale holds item 1 for alice', async () => {
    const r = await get(addr('nft_sale'), 'get_sale_data');
    r.readNumber(); // 0x46495850 "FIXP"
    expect(r.readBoolean()).toBe(false); // not complete
    r.readNumber(); // created_at
    expect(r.readAddress().equals(addr('alice'))).toBe(true); // marketplace
    expect(r.readAddress().equals(addr('nft_item_1'))).toBe(true);
    expect(r.readAddressOpt()?.equals(addr('alice'))).toBe(true); // nft owner
    expect(r.readBigNumber()).toBe(toNano('100'));
  });
});

describe('twins of mainnet cases', () => {
  it('wallet_v5beta holds v5 beta code (the library cell mainnet wallets hold) and data, though it cannot run here', async () => {
    const c = await bc.getContract(addr('wallet_v5beta'));
    const st = c.accountState;
    if (st?.type !== 'active') throw new Error('wallet_v5beta is not active');
    const pk = Buffer.from(accounts.find((x) => x.name === 'wallet_v5beta')!.secret_key_hex!, 'hex').subarray(32);
    const init = createWallet('wallet_v5beta', pk).init;
    expect(st.state.code!.hash().toString('base64')).toBe('89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=');
    expect(st.state.data!.equals(init.data)).toBe(true);
    expect(canRunCode(driver, init.code)).toBe(false);
    // Deployed by the faucet's internal message with its state init: the compute phase cannot load the
    // library (exit 9), and the account keeps the state init all the same.
    const deploy = txsOn(addr('wallet_v5beta')).filter((t) => t.inMessage?.init);
    expect(deploy).toHaveLength(1);
    expect(compute(deploy[0])).toEqual({ type: 'vm', exitCode: 9 });
    await expect(bc.runGetMethod(addr('wallet_v5beta'), 'seqno')).rejects.toThrow();
  });

  it(`${GENESIS_STORAGE_DOMAIN}.ton: bob's name whose one record is a storage bag`, async () => {
    const name = `${GENESIS_STORAGE_DOMAIN}.ton`;
    const item = await get(addr(name), 'get_nft_data');
    item.skip(3);
    expect(item.readAddress().equals(addr('bob'))).toBe(true);
    const r = await get(addr(name), 'dnsresolve', [
      { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
      { type: 'int', value: DNS_CATEGORY.storage },
    ]);
    expect(r.readNumber()).toBe(8);
    const record = parseDnsRecord(r.readCell());
    expect(record.type === 'storage_address' && record.bagId.equals(seedBytes(SEED, 'bag:files'))).toBe(true);
  });
});

describe('DNS', () => {
  it('the collection resolves "alice" to the alice.ton item', async () => {
    const name = dnsInternalName('alice'); // "alice\0"
    const r = await get(addr('dns_collection'), 'dnsresolve', [
      { type: 'slice', cell: beginCell().storeBuffer(name).endCell() },
      { type: 'int', value: 0n },
    ]);
    expect(r.readNumber()).toBe(8 * 5); // the label, not its "\0"
    const rec = parseDnsRecord(r.readCell());
    expect(rec.type).toBe('next_resolver');
    expect(rec.type === 'next_resolver' && rec.address.equals(addr('alice.ton'))).toBe(true);
    const byIndex = await get(addr('dns_collection'), 'get_nft_address_by_index', [{ type: 'int', value: dnsItemIndex('atlas') }]);
    expect(byIndex.readAddress().equals(addr('atlas.ton'))).toBe(true);
  });

  it('items answer wallet / site / next resolver records (alice changed her wallet record)', async () => {
    const resolve = async (item: string, category: bigint, sub = Buffer.from([0])) => {
      const r = await get(addr(item), 'dnsresolve', [
        { type: 'slice', cell: beginCell().storeBuffer(sub).endCell() },
        { type: 'int', value: category },
      ]);
      const bits = r.readNumber();
      const cell = r.readCellOpt();
      return { bits, record: cell ? parseDnsRecord(cell) : null };
    };
    const wallet = await resolve('alice.ton', DNS_CATEGORY.wallet);
    expect(wallet.bits).toBe(8);
    expect(wallet.record?.type === 'smc_address' && wallet.record.address.equals(addr('wallet_v5r1'))).toBe(true);
    const site = await resolve('alice.ton', DNS_CATEGORY.site);
    expect(site.record?.type === 'adnl_address' && site.record.adnl.equals(seedBytes(SEED, 'adnl:alice'))).toBe(true);
    const atlasSite = await resolve('atlas.ton', DNS_CATEGORY.site);
    expect(atlasSite.record?.type === 'storage_address' && atlasSite.record.bagId.equals(seedBytes(SEED, 'bag:atlas'))).toBe(true);
    const deeper = await resolve('atlas.ton', DNS_CATEGORY.wallet, Buffer.from('\0www\0', 'latin1'));
    expect(deeper.bits).toBe(8);
    expect(deeper.record?.type === 'next_resolver' && deeper.record.address.equals(addr('atlas.ton'))).toBe(true);
    const all = await get(addr('alice.ton'), 'dnsresolve', [
      { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
      { type: 'int', value: 0n },
    ]);
    expect(all.readNumber()).toBe(8);
    expect(all.readCell()).toBeInstanceOf(Cell);
  });

  it('items are TEP-62 NFTs of the collection', async () => {
    const r = await get(addr('alice.ton'), 'get_nft_data');
    expect(r.readBoolean()).toBe(true);
    expect(r.readBigNumber()).toBe(dnsItemIndex('alice'));
    expect(r.readAddress().equals(addr('dns_collection'))).toBe(true);
    expect(r.readAddress().equals(addr('alice'))).toBe(true);
    expect(readOnchainContent(r.readCell(), ['name']).name).toBe('alice.ton');
    const d = await get(addr('alice.ton'), 'get_domain');
    expect(d.readCell().beginParse().loadBuffer(5).toString()).toBe('alice');
    const c = await get(addr('dns_collection'), 'get_collection_data');
    expect(c.readNumber()).toBe(-1);
    expect(readOnchainContent(c.readCell(), ['name']).name).toBe('TON DNS (devnet)');
    expect(c.readAddress().equals(addr('admin'))).toBe(true);
  });
});

describe('other accounts and edge cases', () => {
  it('vesting wallet: funded, active, its parameters readable', async () => {
    const c = await bc.getContract(addr('vesting'));
    expect(c.accountState?.type).toBe('active');
    expect(c.balance).toBeGreaterThan(toNano('1000'));
    const r = await get(addr('vesting'), 'get_vesting_data');
    r.skip(4);
    expect(r.readBigNumber()).toBe(toNano('1000'));
    expect(r.readAddress().equals(addr('admin'))).toBe(true);
    expect(r.readAddress().equals(addr('alice'))).toBe(true);
    // The owner key signs like a v3 wallet; a small transfer out of the liquid part goes through.
    const secret = Buffer.from(accounts.find((a) => a.name === 'vesting')!.secret_key_hex!, 'hex');
    const before = driver.transactions.length;
    await driver.sendExternal(
      vestingExternal({
        address: addr('vesting'),
        walletId: VESTING_WALLET_ID_BASE,
        seqno: (await get(addr('vesting'), 'seqno')).readNumber(),
        validUntil: bc.now! + 60,
        secretKey: secret,
        messages: [{ mode: 3, message: internal({ to: addr('alice'), value: toNano('0.1'), bounce: true, body: textCommentBody('from vesting') }) }],
      }),
    );
    expect((await get(addr('vesting'), 'seqno')).readNumber()).toBe(1);
    const received = driver.transactions.slice(before).filter((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(addr('alice')));
    expect(received.map((t) => readTextComment(t.inMessage!.body))).toEqual(['from vesting']);
  });

  it('uninit account holds funds; the bounce target does not exist', async () => {
    const u = await bc.getContract(addr('uninit_receiver'));
    expect(u.accountState?.type).toBe('uninit');
    expect(u.balance).toBeGreaterThan(toNano('6.9'));
    const n = await bc.getContract(addr('bounce_target'));
    expect(n.accountState).toBeUndefined();
  });

  it('the bounceable transfer to a missing account bounced back to carol', () => {
    const [tx] = txsOn(addr('bounce_target'));
    expect(compute(tx)).toEqual({ type: 'skipped', reason: 'no-state' });
    expect(tx.description.type === 'generic' && tx.description.bouncePhase?.type).toBe('ok');
    const back = txsOn(addr('carol')).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced && t.inMessage.info.src.equals(addr('bounce_target')));
    expect(back).toHaveLength(1);
  });

  it('the frozen account was frozen by its first transaction', async () => {
    const c = await bc.getContract(addr('frozen'));
    expect(c.accountState?.type).toBe('frozen');
    const [tx] = txsOn(addr('frozen'));
    expect(tx.description.type === 'generic' && tx.description.storagePhase?.statusChange).toBe('frozen');
  });

  it('comments: unicode, a long multi-cell comment, an encrypted-shaped body and a binary body', () => {
    const bodies = driver.transactions.map((t) => t.inMessage?.body).filter((b): b is Cell => !!b);
    const texts = bodies.map((b) => readTextComment(b));
    expect(texts).toContain(GENESIS_TEXTS.unicode);
    expect(texts).toContain(GENESIS_TEXTS.long);
    expect(texts).toContain('payout #1'); // from the highload wallet's batch
    expect(texts).toContain('payout #2');
    expect(texts).toContain('hello from wallet_v1r1');
    expect(texts).toContain('from the masterchain');
    const long = bodies[texts.indexOf(GENESIS_TEXTS.long)];
    expect(long.refs.length).toBe(1);
    expect(Buffer.byteLength(GENESIS_TEXTS.long)).toBeGreaterThan(3 * 127);
    const ops = bodies.map((b) => (b.bits.length >= 32 ? b.beginParse().preloadUint(32) : -1));
    expect(ops).toContain(0x2167da4b);
    expect(ops).toContain(0xdeadbeef);
  });
});

describe('second and governed jettons', () => {
  const walletOf = async (minter: string, owner: string) =>
    (await get(addr(minter), 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(addr(owner)).endCell() }])).readAddress();

  it('the off-chain jetton: get_jetton_data content is offchain#01 with the URI only', async () => {
    const r = await get(addr('ofc_jetton_minter'), 'get_jetton_data');
    expect(r.readBigNumber()).toBe(J2.offchainMintAlice);
    r.readBigNumber();
    expect(r.readAddress().equals(addr('admin'))).toBe(true);
    const content = r.readCell().beginParse();
    expect(content.loadUint(8)).toBe(1);
    expect(content.loadBuffer(content.remainingBits / 8).toString('utf8')).toBe(GENESIS_OFFCHAIN_JETTON_URI);
    expect((await walletOf('ofc_jetton_minter', 'alice')).equals(addr('alice_ofc_jetton'))).toBe(true);
    expect((await get(addr('alice_ofc_jetton'), 'get_wallet_data')).readBigNumber()).toBe(J2.offchainMintAlice);
  });

  it('the governed jetton: supply, admin, { uri, decimals } content, wallets with no code in their data', async () => {
    const r = await get(addr('stablecoin_minter'), 'get_jetton_data');
    expect(r.readBigNumber()).toBe(J2.stableMintAlice + J2.stableMintBob);
    expect(r.readBigNumber()).toBe(-1n);
    expect(r.readAddress().equals(addr('admin'))).toBe(true);
    expect(readOnchainContent(r.readCell(), ['uri', 'decimals'])).toEqual({ uri: GENESIS_STABLECOIN.uri, decimals: String(GENESIS_STABLECOIN.decimals) });
    const walletCode = r.readCell();
    const expected: Record<string, [string, bigint, number]> = {
      alice_stablecoin: ['alice', J2.stableMintAlice - J2.stableAliceToBob, 0],
      bob_stablecoin: ['bob', J2.stableMintBob + J2.stableAliceToBob - J2.stableBobToCarol, 0],
      carol_stablecoin: ['carol', J2.stableBobToCarol, 3], // locked by the admin
    };
    for (const [name, [owner, balance, status]] of Object.entries(expected)) {
      const w = await get(addr(name), 'get_wallet_data');
      expect(w.readBigNumber(), name).toBe(balance);
      expect(w.readAddress().equals(addr(owner))).toBe(true);
      expect(w.readAddress().equals(addr('stablecoin_minter'))).toBe(true);
      expect(w.readCell().equals(walletCode)).toBe(true);
      expect((await get(addr(name), 'get_status')).readNumber(), name).toBe(status);
      expect((await walletOf('stablecoin_minter', owner)).equals(addr(name))).toBe(true);
      const st = (await bc.getContract(addr(name))).accountState;
      expect(st?.type === 'active' && st.state.data!.refs.length).toBe(0);
    }
    const note = txsOn(addr('bob')).find((t) => t.inMessage?.info.src instanceof Address && t.inMessage.info.src.equals(addr('bob_stablecoin')) && t.inMessage.body.beginParse().preloadUint(32) === OP_JETTON_TRANSFER_NOTIFICATION);
    const s = note!.inMessage!.body.beginParse().skip(32 + 64);
    expect(s.loadCoins()).toBe(J2.stableAliceToBob);
    s.loadAddress();
    expect(readTextComment(s.loadBit() ? s.loadRef() : s.asCell())).toBe(GENESIS_TEXTS.stablecoinToBob);
  });

  it('a locked wallet refuses to send (exit 45) and the request bounces', async () => {
    const carol = accounts.find((a) => a.name === 'carol')!;
    const secret = Buffer.from(carol.secret_key_hex!, 'hex');
    const h = new WalletHandle('carol', createWallet('wallet_v3r2', secret.subarray(32)), secret);
    await h.resync(bc);
    const before = driver.transactions.length;
    await h.send(driver, [
      { to: addr('carol_stablecoin'), value: toNano('0.1'), bounce: true, body: jettonTransferBody({ amount: 1n, destination: addr('alice'), responseDestination: addr('carol') }) },
    ]);
    const tx = driver.transactions.slice(before).find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(addr('carol_stablecoin')))!;
    expect(compute(tx)).toEqual({ type: 'vm', exitCode: STABLECOIN_EXIT.contractLocked });
    expect((await get(addr('carol_stablecoin'), 'get_wallet_data')).readBigNumber()).toBe(J2.stableBobToCarol);
  });

  it('the admin role moves in two steps and the new admin edits the metadata URI', async () => {
    const handle = (name: string, kind: 'wallet_v4r2' | 'wallet_v5r1') => {
      const secret = Buffer.from(accounts.find((a) => a.name === name)!.secret_key_hex!, 'hex');
      return new WalletHandle(name, createWallet(kind, secret.subarray(32)), secret);
    };
    const admin = handle('admin', 'wallet_v4r2');
    const bob = handle('bob', 'wallet_v5r1');
    await admin.resync(bc);
    await bob.resync(bc);
    const minter = addr('stablecoin_minter');
    await admin.send(driver, [{ to: minter, value: toNano('0.05'), bounce: true, body: stablecoinChangeAdminBody(addr('bob')) }]);
    expect((await get(minter, 'get_next_admin_address')).readAddress().equals(addr('bob'))).toBe(true);
    await bob.send(driver, [{ to: minter, value: toNano('0.05'), bounce: true, body: stablecoinClaimAdminBody() }]);
    await bob.send(driver, [{ to: minter, value: toNano('0.05'), bounce: true, body: stablecoinChangeMetadataUriBody('https://atlas.devnet/jettons/usdt-v2.json') }]);
    const r = await get(minter, 'get_jetton_data');
    r.skip(2);
    expect(r.readAddress().equals(addr('bob'))).toBe(true);
    expect(readOnchainContent(r.readCell(), ['uri']).uri).toBe('https://atlas.devnet/jettons/usdt-v2.json');
    expect((await get(minter, 'get_next_admin_address')).readAddressOpt()).toBeNull();
  });

  it('carol asked for more ATLAS than she holds: her jetton wallet aborts (706) and the request bounces back', async () => {
    const failed = txsOn(addr('carol_jetton')).filter((t) => compute(t)?.type === 'vm' && (compute(t) as { exitCode: number }).exitCode === 706);
    expect(failed).toHaveLength(1);
    const body = failed[0].inMessage!.body.beginParse().skip(32);
    expect(body.loadUintBig(64)).toBe(GENESIS_QUERY_IDS.jettonOverdraft);
    expect(body.loadCoins()).toBe(J2.atlasOverdraft);
    expect(failed[0].description.type === 'generic' && failed[0].description.aborted).toBe(true);
    const back = txsOn(addr('carol')).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced && t.inMessage.info.src.equals(addr('carol_jetton')));
    expect(back).toHaveLength(1);
  });
});

describe('auction and the sold sale', () => {
  it('the auction of item 3 is open with alice leading; carol got her bid back', async () => {
    const a = readAuctionData((await bc.runGetMethod(addr('nft_auction'), 'get_sale_data')).stack);
    expect(a).toMatchObject({ end: false, isCanceled: false, lastBid: toNano('3'), minBid: GENESIS_AUCTION.minBid, maxBid: GENESIS_AUCTION.maxBid, minStep: 10n, mpFeeFactor: 5n, mpFeeBase: 100n });
    expect(a.nft!.equals(addr('nft_item_3'))).toBe(true);
    expect(a.nftOwner!.equals(addr('bob'))).toBe(true);
    expect(a.lastMember!.equals(addr('alice'))).toBe(true);
    expect(a.marketplace!.equals(addr('admin'))).toBe(true);
    expect(a.endTime).toBeGreaterThan(BigInt(bc.now!));
    expect(a.endTime - a.lastBidAt).toBeLessThanOrEqual(BigInt(GENESIS_AUCTION.duration));
    const owner = await get(addr('nft_item_3'), 'get_nft_data');
    owner.skip(3);
    expect(owner.readAddress().equals(addr('nft_auction'))).toBe(true);
    const refund = txsOn(addr('carol')).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(addr('nft_auction')));
    expect(refund.map((t) => (t.inMessage!.info as { value: { coins: bigint } }).value.coins)).toEqual([GENESIS_AUCTION.bids[0].amount]);
  });

  it('bob bought item 4 from the fixed-price sale: the sale is complete and the seller paid', async () => {
    const r = await get(addr('nft_sale_sold'), 'get_sale_data');
    r.readNumber();
    expect(r.readBoolean()).toBe(true); // complete
    const item = await get(addr('nft_item_4'), 'get_nft_data');
    item.skip(3);
    expect(item.readAddress().equals(addr('bob'))).toBe(true);
    const paid = txsOn(addr('carol')).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(addr('nft_sale_sold')));
    expect(paid).toHaveLength(1);
    const value = (paid[0].inMessage!.info as { value: { coins: bigint } }).value.coins;
    // The seller gets the price minus the fees, plus what is left of the buyer's gas allowance.
    expect(value).toBeGreaterThanOrEqual(GENESIS_SOLD_SALE.price - GENESIS_SOLD_SALE.marketplaceFee - GENESIS_SOLD_SALE.royalty);
    expect(value).toBeLessThan(GENESIS_SOLD_SALE.price + toNano('1'));
  });
});

describe('vesting messages and the DNS renewal', () => {
  it('the vesting sender whitelisted carol; the owner had the wallet send bob a comment', async () => {
    const w = await get(addr('vesting'), 'is_whitelisted', [{ type: 'slice', cell: beginCell().storeAddress(addr('carol')).endCell() }]);
    expect(w.readBigNumber()).toBe(-1n);
    const fromVesting = txsOn(addr('bob')).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(addr('vesting')));
    expect(fromVesting.map((t) => readTextComment(t.inMessage!.body))).toEqual([GENESIS_TEXTS.vestingSend]);
  });

  it('alice renewed alice.ton: change_dns_record with key 0 and no value, accepted', () => {
    const renew = txsOn(addr('alice.ton')).filter((t) => {
      const s = t.inMessage!.body.beginParse();
      return s.remainingBits >= 96 && s.loadUint(32) === 0x4eb1f0f9 && s.loadUintBig(64) === GENESIS_QUERY_IDS.dnsRenew;
    });
    expect(renew).toHaveLength(1);
    expect(compute(renew[0])).toEqual({ type: 'vm', exitCode: 0 });
  });
});

describe('multisig v2', () => {
  const M = GENESIS_MULTISIG;
  const order = async (name: string) => readOrderData((await bc.runGetMethod(addr(name), 'get_order_data')).stack);

  it('alice, bob and carol sign with threshold 2, the admin proposes; two orders were created', async () => {
    const d = readMultisigData((await bc.runGetMethod(addr('multisig'), 'get_multisig_data')).stack);
    expect(d.nextOrderSeqno).toBe(2n);
    expect(d.threshold).toBe(M.threshold);
    expect(d.signers.map((a) => a.toRawString())).toEqual(M.signers.map((n) => addr(n).toRawString()));
    expect(d.proposers.map((a) => a.toRawString())).toEqual([addr('admin').toRawString()]);
    const r = await get(addr('multisig'), 'get_order_address', [{ type: 'int', value: 1n }]);
    expect(r.readAddress().equals(addr('multisig_order_1'))).toBe(true);
  });

  it("alice's order 0 executed on bob's approval: wallet_v4r2 paid with a comment, carol got ATLAS", async () => {
    const o = await order('multisig_order_0');
    expect(o).toMatchObject({ orderSeqno: 0n, threshold: 2, sentForExecution: true, approvalsNum: 2, approvalsMask: 3n });
    expect(parseMultisigOrder(o.order!).map((a) => a.type)).toEqual(['transfer', 'transfer']);
    const paid = txsOn(addr(M.payment.to)).filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(addr('multisig')));
    expect(paid.map((t) => readTextComment(t.inMessage!.body))).toEqual([M.payment.comment]);
    expect((paid[0].inMessage!.info as { value: { coins: bigint } }).value.coins).toBe(M.payment.value);
    const balance = async (name: string) => (await get(addr(name), 'get_wallet_data')).readBigNumber();
    expect(await balance('multisig_jetton')).toBe(M.atlasIn - M.atlasToCarol);
    expect(await balance('carol_jetton')).toBe(A.aliceToCarol + M.atlasToCarol);
  });

  it("the admin's order 1 waits with carol's approval only", async () => {
    const o = await order('multisig_order_1');
    expect(o).toMatchObject({ orderSeqno: 1n, sentForExecution: false, approvalsNum: 1, approvalsMask: 4n });
    expect(o.expirationDate).toBe(M.expiresAt);
    expect(txsOn(addr('carol')).some((t) => readTextComment(t.inMessage!.body) === M.pending.comment)).toBe(false);
  });
});

describe('determinism', () => {
  it('the same seed gives the same addresses and keys; another seed different ones', async () => {
    const again = await runGenesis(sandboxDriver(await freshChain()), { seed: SEED });
    expect(again).toEqual(accounts);
    const other = await runGenesis(sandboxDriver(await freshChain()), { seed: `${SEED}-other` });
    expect(other.map((a) => a.name)).toEqual(accounts.map((a) => a.name));
    for (let i = 0; i < other.length; i++) {
      expect(other[i].address).not.toBe(accounts[i].address);
      if (other[i].secret_key_hex) expect(other[i].secret_key_hex).not.toBe(accounts[i].secret_key_hex);
    }
  });
});
