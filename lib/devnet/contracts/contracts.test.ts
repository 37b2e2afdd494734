import { beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, internal, SendMode, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Blockchain, type BlockchainTransaction, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import {
  WalletContractV1R1,
  WalletContractV2R2,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5R1,
} from '@ton/ton';
import { encryptedCommentBody, onchainContent, readOnchainContent, readSnakeBytes, readTextComment, textCommentBody } from './common';
import {
  compileDnsContracts,
  DNS_CATEGORY,
  dnsChangeRecordBody,
  dnsCollectionInit,
  dnsInternalName,
  dnsItemAddress,
  dnsRecordSet,
  dnsRegisterBody,
  parseDnsRecord,
  type DnsCode,
} from './dns';
import { highloadQueryId, highloadV3Code } from './highload';
import { jettonBurnBody, jettonMinterCode, jettonWalletCode, OP_EXCESSES } from './jetton';
import { nftCollectionCode, nftCollectionInit, nftItemAddress, nftItemCode, nftMintBody, nftSaleCode, nftSaleInit, nftTransferBody } from './nft';
import { compileDeployerContract, listingPayload, nftDeployerInit, saleCancelBody } from './marketplace';
import { AUCTION_EXIT, compileAuctionContract, nftAuctionInit, type AuctionCode } from './auction';
import { compileStablecoinContracts, STABLECOIN_EXIT, stablecoinMintBody, stablecoinMinterInit, stablecoinWalletAddress, type StablecoinCode } from './stablecoin';
import { readAuctionData, readSaleData } from '../../ton/nft-getters';
import {
  approvedIndexes,
  MULTISIG_EXIT,
  MULTISIG_NEXT_SEQNO,
  MULTISIG_OP,
  multisigApproveBody,
  multisigNewOrderBody,
  packMultisigOrder,
  parseMultisigOrder,
  readApproveAnswer,
  readMultisigData,
  readOrderData,
  type MultisigAction,
} from '../../ton/multisig';
import { compileMultisigContracts, multisigInit, multisigOrderAddress, type MultisigCode } from './multisig';
import { vestingCode } from './vesting';
import { createWallet, v5r1WalletId } from './wallets';

describe('message bodies and content', () => {
  it('text comments round-trip; long ones span several cells', () => {
    const long = '長い 🦊 '.repeat(60);
    const body = textCommentBody(long);
    expect(body.refs.length).toBe(1);
    expect(body.depth()).toBeGreaterThanOrEqual(2);
    expect(readTextComment(body)).toBe(long);
    expect(readTextComment(textCommentBody('hi 👋'))).toBe('hi 👋');
    expect(readTextComment(encryptedCommentBody(Buffer.alloc(40, 7)))).toBeNull();
    const enc = encryptedCommentBody(Buffer.alloc(200, 7)).beginParse();
    expect(enc.loadUint(32)).toBe(0x2167da4b);
    expect(readSnakeBytes(enc).equals(Buffer.alloc(200, 7))).toBe(true);
  });

  it('TEP-64 on-chain content round-trips', () => {
    const fields = { name: 'Näme', description: 'x'.repeat(300), image: 'https://example/i.png' };
    expect(readOnchainContent(onchainContent(fields), ['name', 'description', 'image', 'symbol'])).toEqual(fields);
  });
});

describe('contract code from packages', () => {
  it('all code cells load and are ordinary cells', () => {
    for (const c of [highloadV3Code(), jettonMinterCode(), jettonWalletCode(), nftCollectionCode(), nftItemCode(), nftSaleCode(), vestingCode()]) {
      expect(c).toBeInstanceOf(Cell);
      expect(c.isExotic).toBe(false);
    }
  });

  it('wallet addresses match @ton/ton', () => {
    const pk = Buffer.alloc(32, 3);
    expect(createWallet('wallet_v1r1', pk).address.equals(WalletContractV1R1.create({ workchain: 0, publicKey: pk }).address)).toBe(true);
    expect(createWallet('wallet_v2r2', pk).address.equals(WalletContractV2R2.create({ workchain: 0, publicKey: pk }).address)).toBe(true);
    expect(createWallet('wallet_v3r2', pk, { workchain: -1 }).address.equals(WalletContractV3R2.create({ workchain: -1, publicKey: pk }).address)).toBe(true);
    expect(createWallet('wallet_v4r2', pk).address.equals(WalletContractV4.create({ workchain: 0, publicKey: pk }).address)).toBe(true);
    expect(createWallet('wallet_v5r1', pk).address.equals(WalletContractV5R1.create({ publicKey: pk }).address)).toBe(true);
    expect(v5r1WalletId(0)).toBe(2147483409);
    expect(v5r1WalletId(-1)).toBe(8388369);
  });

  it('signed transfer bodies are the bytes @ton/ton signs with @ton/crypto (native signing, same signatures)', async () => {
    const keys = keyPairFromSeed(Buffer.alloc(32, 9));
    const messages = [internal({ to: new Address(0, Buffer.alloc(32, 1)), value: toNano('1.5'), bounce: true, body: textCommentBody('hi') })];
    const sendMode = SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS;
    const a = { seqno: 7, secretKey: keys.secretKey, messages, sendMode, now: 1_700_000_000, ttl: 60 };
    const timeout = a.now + a.ttl;
    const expected: [Parameters<typeof createWallet>[0], Cell][] = [
      ['wallet_v1r1', WalletContractV1R1.create({ workchain: 0, publicKey: keys.publicKey }).createTransfer({ seqno: 7, secretKey: keys.secretKey, message: messages[0], sendMode })],
      ['wallet_v2r2', WalletContractV2R2.create({ workchain: 0, publicKey: keys.publicKey }).createTransfer({ ...a, timeout })],
      ['wallet_v3r2', WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey }).createTransfer({ ...a, timeout })],
      ['wallet_v4r2', WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey }).createTransfer({ ...a, timeout })],
      ['wallet_v5r1', WalletContractV5R1.create({ publicKey: keys.publicKey }).createTransfer({ ...a, timeout })],
    ];
    for (const [kind, body] of expected) {
      expect((await createWallet(kind, keys.publicKey).createTransferBody(a)).hash().toString('hex'), kind).toBe(body.hash().toString('hex'));
    }
  });

  it('highload query ids', () => {
    expect(highloadQueryId(0).queryId).toBe(0n);
    expect(highloadQueryId(1022)).toEqual({ shift: 0, bitNumber: 1022, queryId: 1022n });
    expect(highloadQueryId(1023)).toEqual({ shift: 1, bitNumber: 0, queryId: 1024n });
    expect(() => highloadQueryId(-1)).toThrow();
  });
});

describe('DNS contracts (Tolk)', () => {
  let code: DnsCode;
  let compileMs = 0;
  let bc: Blockchain;
  let admin: SandboxContract<TreasuryContract>;
  let alice: SandboxContract<TreasuryContract>;
  let bob: SandboxContract<TreasuryContract>;
  let collection: Address;

  const exitOn = (txs: BlockchainTransaction[], a: Address): number | undefined => {
    const tx = txs.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(a));
    if (!tx || tx.description.type !== 'generic') return undefined;
    const c = tx.description.computePhase;
    return c.type === 'vm' ? c.exitCode : undefined;
  };
  const resolve = async (a: Address, sub: Buffer, category: bigint) => {
    const r = (await bc.runGetMethod(a, 'dnsresolve', [
      { type: 'slice', cell: beginCell().storeBuffer(sub).endCell() },
      { type: 'int', value: category },
    ])).stackReader;
    return { bits: r.readNumber(), cell: r.readCellOpt() };
  };

  beforeAll(async () => {
    const t = performance.now();
    code = await compileDnsContracts();
    compileMs = performance.now() - t;
    console.log(`tolk compile (dns-item + dns-collection): ${compileMs.toFixed(0)} ms (reported ${code.compileMs} ms)`);
    bc = await Blockchain.create();
    bc.now = Math.floor(Date.now() / 1000);
    admin = await bc.treasury('admin');
    alice = await bc.treasury('alice');
    bob = await bc.treasury('bob');
    const init = dnsCollectionInit(code, { admin: admin.address, content: onchainContent({ name: 'zone' }) });
    collection = init.address;
    const r = await admin.send({ to: collection, value: toNano('1'), init: init.init, bounce: false });
    expect(exitOn(r.transactions, collection)).toBe(0);
  });

  it('compiles once per process', async () => {
    const again = await compileDnsContracts();
    expect(again.compileMs).toBe(0);
    expect(again.item.hash().equals(code.item.hash())).toBe(true);
    expect(again.collection.hash().equals(code.collection.hash())).toBe(true);
  });

  it('registers a name (admin only), and the item resolves its records', async () => {
    const item = dnsItemAddress(code, collection, 'bob');
    const body = dnsRegisterBody({
      label: 'bob',
      owner: bob.address,
      content: onchainContent({ name: 'bob.ton' }),
      records: dnsRecordSet([{ category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: bob.address } }]),
    });
    const denied = await alice.send({ to: collection, value: toNano('0.2'), body });
    expect(exitOn(denied.transactions, collection)).toBe(401);
    const ok = await admin.send({ to: collection, value: toNano('0.2'), body });
    expect(exitOn(ok.transactions, collection)).toBe(0);
    expect(exitOn(ok.transactions, item)).toBe(0);
    expect((await bc.getContract(item)).accountState?.type).toBe('active');

    const viaCollection = await resolve(collection, Buffer.concat([Buffer.from([0]), dnsInternalName('bob')]), 0n);
    expect(viaCollection.bits).toBe(8 * 4); // "\0bob"
    const next = parseDnsRecord(viaCollection.cell!);
    expect(next.type === 'next_resolver' && next.address.equals(item)).toBe(true);
    const w = await resolve(item, Buffer.from([0]), DNS_CATEGORY.wallet);
    expect(w.bits).toBe(8);
    const rec = parseDnsRecord(w.cell!);
    expect(rec.type === 'smc_address' && rec.address.equals(bob.address)).toBe(true);
    expect((await resolve(item, Buffer.from([0]), DNS_CATEGORY.site)).cell).toBeNull();
    expect((await resolve(collection, Buffer.alloc(0), 0n)).bits).toBe(0);

    // A second registration of the same name must not re-initialise the item.
    const twice = await admin.send({ to: collection, value: toNano('0.2'), body });
    expect(exitOn(twice.transactions, item)).toBe(404);
  });

  it('owner-only record changes and TEP-62 transfer', async () => {
    const item = dnsItemAddress(code, collection, 'bob');
    const change = dnsChangeRecordBody({ category: DNS_CATEGORY.site, record: { type: 'adnl_address', adnl: Buffer.alloc(32, 9) } });
    const denied = await alice.send({ to: item, value: toNano('0.05'), body: change });
    expect(exitOn(denied.transactions, item)).toBe(401);
    const ok = await bob.send({ to: item, value: toNano('0.05'), body: change });
    expect(exitOn(ok.transactions, item)).toBe(0);
    const site = parseDnsRecord((await resolve(item, Buffer.from([0]), DNS_CATEGORY.site)).cell!);
    expect(site.type === 'adnl_address' && site.adnl.equals(Buffer.alloc(32, 9))).toBe(true);
    const del = await bob.send({ to: item, value: toNano('0.05'), body: dnsChangeRecordBody({ category: DNS_CATEGORY.site, record: null }) });
    expect(exitOn(del.transactions, item)).toBe(0);
    expect((await resolve(item, Buffer.from([0]), DNS_CATEGORY.site)).cell).toBeNull();

    const transfer = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(5, 64)
      .storeAddress(alice.address)
      .storeAddress(bob.address)
      .storeMaybeRef(null)
      .storeCoins(toNano('0.01'))
      .storeMaybeRef(textCommentBody('yours'))
      .endCell();
    const moved = await bob.send({ to: item, value: toNano('0.2'), body: transfer });
    expect(exitOn(moved.transactions, item)).toBe(0);
    const assigned = moved.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(alice.address));
    expect(assigned?.inMessage?.body.beginParse().loadUint(32)).toBe(0x05138d91);
    const excess = moved.transactions.find(
      (t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(bob.address) && t.inMessage.body.beginParse().loadUint(32) === 0xd53276db,
    );
    expect(excess).toBeDefined();
    const r = (await bc.runGetMethod(item, 'get_nft_data')).stackReader;
    r.skip(3);
    expect(r.readAddress().equals(alice.address)).toBe(true);
    expect((await bc.getContract(item)).balance).toBeGreaterThan(0n);
  });

  it('answers get_last_fill_up_time: the registration time, renewed by each record change of the owner', async () => {
    const fillUp = async (a: Address) => (await bc.runGetMethod(a, 'get_last_fill_up_time')).stackReader.readBigNumber();
    const item = dnsItemAddress(code, collection, 'dave');
    const registeredAt = bc.now!;
    const body = dnsRegisterBody({ label: 'dave', owner: bob.address, content: onchainContent({ name: 'dave.ton' }), records: dnsRecordSet([]) });
    expect(exitOn((await admin.send({ to: collection, value: toNano('0.2'), body })).transactions, item)).toBe(0);
    expect(await fillUp(item)).toBe(BigInt(registeredAt));

    bc.now = registeredAt + 86_400;
    const change = dnsChangeRecordBody({ category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: bob.address } });
    expect(exitOn((await alice.send({ to: item, value: toNano('0.05'), body: change })).transactions, item)).toBe(401);
    expect(await fillUp(item)).toBe(BigInt(registeredAt)); // a refused change renews nothing
    expect(exitOn((await bob.send({ to: item, value: toNano('0.05'), body: change })).transactions, item)).toBe(0);
    expect(await fillUp(item)).toBe(BigInt(registeredAt + 86_400));
  });

  it('answers get_static_data and rejects unknown ops', async () => {
    const item = dnsItemAddress(code, collection, 'bob');
    const q = await alice.send({ to: item, value: toNano('0.05'), body: beginCell().storeUint(0x2fcb26a2, 32).storeUint(77, 64).endCell() });
    const report = q.transactions.find(
      (t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(alice.address) && t.inMessage.info.src instanceof Address && t.inMessage.info.src.equals(item),
    );
    const s = report!.inMessage!.body.beginParse();
    expect(s.loadUint(32)).toBe(0x8b771735);
    expect(s.loadUintBig(64)).toBe(77n);
    const unknown = await alice.send({ to: item, value: toNano('0.05'), body: beginCell().storeUint(0x12345678, 32).endCell() });
    expect(exitOn(unknown.transactions, item)).toBe(0xffff);
    const comment = await alice.send({ to: collection, value: toNano('0.05'), body: textCommentBody('tip') });
    expect(exitOn(comment.transactions, collection)).toBe(0);
  });
});

describe('governed jetton (Tolk, stablecoin-contract manner)', () => {
  let bc: Blockchain;
  let code: StablecoinCode;
  let admin: SandboxContract<TreasuryContract>;
  let alice: SandboxContract<TreasuryContract>;
  let minter: Address;
  const exitOn = (txs: BlockchainTransaction[], a: Address) => {
    const tx = txs.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(a));
    const c = tx && tx.description.type === 'generic' ? tx.description.computePhase : null;
    return c?.type === 'vm' ? c.exitCode : undefined;
  };
  const supply = async () => (await bc.runGetMethod(minter, 'get_jetton_data')).stackReader.readBigNumber();

  beforeAll(async () => {
    code = await compileStablecoinContracts();
    bc = await Blockchain.create();
    bc.now = Math.floor(Date.now() / 1000);
    admin = await bc.treasury('admin');
    alice = await bc.treasury('alice');
    const init = stablecoinMinterInit(code, { admin: admin.address, metadataUri: 'https://example/usdt.json' });
    minter = init.address;
    const r = await admin.send({
      to: minter,
      value: toNano('1'),
      init: init.init,
      bounce: false,
      body: stablecoinMintBody({ to: alice.address, amount: 1000n, tonToWallet: toNano('0.1'), minter, responseAddress: admin.address }),
    });
    expect(exitOn(r.transactions, minter)).toBe(0);
    expect(await supply()).toBe(1000n);
  });

  it('only the admin mints (73 otherwise)', async () => {
    const r = await alice.send({ to: minter, value: toNano('0.2'), body: stablecoinMintBody({ to: alice.address, amount: 5n, tonToWallet: toNano('0.1'), minter }) });
    expect(exitOn(r.transactions, minter)).toBe(STABLECOIN_EXIT.notOwner);
    expect(await supply()).toBe(1000n);
  });

  it('a burn lowers the supply and returns the excess; an overdraft burn exits 47', async () => {
    const wallet = stablecoinWalletAddress(code, minter, alice.address);
    const r = await alice.send({ to: wallet, value: toNano('0.1'), body: jettonBurnBody({ amount: 300n, responseDestination: alice.address }) });
    expect(exitOn(r.transactions, wallet)).toBe(0);
    expect(exitOn(r.transactions, minter)).toBe(0);
    expect(await supply()).toBe(700n);
    expect((await bc.runGetMethod(wallet, 'get_wallet_data')).stackReader.readBigNumber()).toBe(700n);
    const excess = r.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(alice.address) && t.inMessage.body.beginParse().preloadUint(32) === OP_EXCESSES);
    expect(excess).toBeDefined();
    const over = await alice.send({ to: wallet, value: toNano('0.1'), body: jettonBurnBody({ amount: 701n, responseDestination: alice.address }) });
    expect(exitOn(over.transactions, wallet)).toBe(STABLECOIN_EXIT.balance);
  });

  it('TEP-89 provide_wallet_address answers take_wallet_address with the wallet (and the owner when asked)', async () => {
    const body = beginCell().storeUint(0x2c76b973, 32).storeUint(5, 64).storeAddress(admin.address).storeBit(true).endCell();
    const r = await alice.send({ to: minter, value: toNano('0.1'), body });
    const reply = r.transactions.find((t) => t.inMessage?.info.src instanceof Address && t.inMessage.info.src.equals(minter))!;
    const s = reply.inMessage!.body.beginParse();
    expect(s.loadUint(32)).toBe(0xd1735400);
    expect(s.loadUintBig(64)).toBe(5n);
    expect(s.loadAddress().equals(stablecoinWalletAddress(code, minter, admin.address))).toBe(true);
    expect(s.loadMaybeRef()!.beginParse().loadAddress().equals(admin.address)).toBe(true);
  });
});

describe('NFT auction (Tolk, GetGems nft-auction-v2 getter)', () => {
  let bc: Blockchain;
  let code: AuctionCode;
  let seller: SandboxContract<TreasuryContract>;
  let b1: SandboxContract<TreasuryContract>;
  let b2: SandboxContract<TreasuryContract>;
  let market: SandboxContract<TreasuryContract>;
  let collection: Address;
  let nextIndex = 0;
  const valueTo = (txs: BlockchainTransaction[], from: Address, to: Address) =>
    txs
      .filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(from) && (t.inMessage.info.dest as Address).equals(to))
      .map((t) => (t.inMessage!.info as { value: { coins: bigint } }).value.coins);
  const exitOn = (txs: BlockchainTransaction[], a: Address) => {
    const tx = txs.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(a));
    const c = tx && tx.description.type === 'generic' ? tx.description.computePhase : null;
    return c?.type === 'vm' ? c.exitCode : undefined;
  };
  const saleData = async (a: Address) => readAuctionData((await bc.runGetMethod(a, 'get_sale_data')).stack);
  const ownerOf = async (item: Address) => {
    const r = (await bc.runGetMethod(item, 'get_nft_data')).stackReader;
    r.skip(3);
    return r.readAddress();
  };

  /** A fresh item of the seller's on a fresh, open auction. */
  async function openAuction(maxBid = toNano('10')) {
    const index = nextIndex++;
    await seller.send({ to: collection, value: toNano('0.1'), body: nftMintBody({ index, owner: seller.address, individualContent: `${index}.json`, itemValue: toNano('0.05') }) });
    const item = nftItemAddress(collection, index);
    const a = nftAuctionInit(code, {
      marketplace: market.address,
      nft: item,
      createdAt: 1_767_225_600 + index,
      duration: 3600,
      minBid: toNano('1'),
      maxBid,
      minStep: 10,
      marketplaceFee: { address: market.address, factor: 5, base: 100 },
      royalty: { address: market.address, factor: 0, base: 100 },
    });
    expect(exitOn((await seller.send({ to: a.address, value: toNano('0.1'), init: a.init, bounce: false })).transactions, a.address)).toBe(0);
    await seller.send({ to: item, value: toNano('0.2'), body: nftTransferBody({ newOwner: a.address, responseDestination: seller.address, forwardAmount: toNano('0.05') }) });
    return { item, auction: a.address };
  }

  beforeAll(async () => {
    code = await compileAuctionContract();
    bc = await Blockchain.create();
    bc.now = Math.floor(Date.now() / 1000);
    seller = await bc.treasury('seller');
    b1 = await bc.treasury('bidder1');
    b2 = await bc.treasury('bidder2');
    market = await bc.treasury('market');
    const c = nftCollectionInit({ owner: seller.address, collectionContent: onchainContent({ name: 'lots' }), commonContent: 'https://example/' });
    collection = c.address;
    await seller.send({ to: collection, value: toNano('0.1'), init: c.init, bounce: false });
  });

  it('opens when the NFT arrives; bids must reach the minimum, then add min_step %; the outbid bidder is refunded', async () => {
    const { auction } = await openAuction();
    const open = await saleData(auction);
    expect(open).toMatchObject({ end: false, lastBid: 0n, lastMember: null, endTime: BigInt(bc.now! + 3600) });
    expect(open.nftOwner!.equals(seller.address)).toBe(true);
    expect(exitOn((await b1.send({ to: auction, value: toNano('0.5') })).transactions, auction)).toBe(AUCTION_EXIT.lowBid);
    expect(exitOn((await b1.send({ to: auction, value: toNano('1') })).transactions, auction)).toBe(0);
    expect(exitOn((await b2.send({ to: auction, value: toNano('1.05') })).transactions, auction)).toBe(AUCTION_EXIT.lowBid);
    const outbid = await b2.send({ to: auction, value: toNano('1.1') });
    expect(valueTo(outbid.transactions, auction, b1.address)).toEqual([toNano('1')]);
    const d = await saleData(auction);
    expect(d.lastBid).toBe(toNano('1.1'));
    expect(d.lastMember!.equals(b2.address)).toBe(true);
  });

  it('a bid of max_bid finishes it: the NFT to the bidder, the seller paid the bid minus the marketplace fee', async () => {
    const { item, auction } = await openAuction(toNano('5'));
    const r = await b1.send({ to: auction, value: toNano('5') });
    expect((await saleData(auction)).end).toBe(true);
    expect((await ownerOf(item)).equals(b1.address)).toBe(true);
    expect(valueTo(r.transactions, auction, seller.address)).toEqual([toNano('5') - toNano('0.25')]);
    expect(valueTo(r.transactions, auction, market.address)).toEqual([toNano('0.25')]);
    expect(exitOn((await b2.send({ to: auction, value: toNano('6') })).transactions, auction)).toBe(1001); // over
  });

  it('after the end time any message finishes it; the seller may cancel only before any bid', async () => {
    const { item, auction } = await openAuction();
    await b1.send({ to: auction, value: toNano('2') });
    expect(exitOn((await seller.send({ to: auction, value: toNano('0.1'), body: textCommentBody('cancel') })).transactions, auction)).toBe(AUCTION_EXIT.notAllowed);
    bc.now = bc.now! + 3601;
    await market.send({ to: auction, value: toNano('0.1') });
    expect((await ownerOf(item)).equals(b1.address)).toBe(true);
    expect((await saleData(auction)).end).toBe(true);

    const second = await openAuction();
    await seller.send({ to: second.auction, value: toNano('0.1'), body: textCommentBody('cancel') });
    expect(await saleData(second.auction)).toMatchObject({ end: true, isCanceled: true });
    expect((await ownerOf(second.item)).equals(seller.address)).toBe(true);
  });

  it('the seller (or the marketplace) may finish it early: the last bid wins; the outbid bidder and the payouts carry comments', async () => {
    const { item, auction } = await openAuction();
    await b1.send({ to: auction, value: toNano('1') });
    const outbid = await b2.send({ to: auction, value: toNano('2') });
    const refund = outbid.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(b1.address))!;
    expect(readTextComment(refund.inMessage!.body)).toBe('Your bid has been outbid by another user.');
    expect(exitOn((await b1.send({ to: auction, value: toNano('0.1'), body: textCommentBody('finish') })).transactions, auction)).toBe(AUCTION_EXIT.notAllowed);
    const r = await seller.send({ to: auction, value: toNano('0.1'), body: textCommentBody('finish') });
    expect((await ownerOf(item)).equals(b2.address)).toBe(true);
    expect(await saleData(auction)).toMatchObject({ end: true, isCanceled: false });
    const comments = r.transactions.filter((t) => t.inMessage?.info.src instanceof Address && t.inMessage.info.src.equals(auction) && t.inMessage.body.beginParse().remainingBits >= 32 && t.inMessage.body.beginParse().preloadUint(32) === 0);
    expect(comments.map((t) => readTextComment(t.inMessage!.body)).sort()).toEqual(['Marketplace fee', 'Profit']); // royalty factor 0: no royalty payout
    // With no bid, "stop" from the marketplace gives the item back.
    const second = await openAuction();
    await market.send({ to: second.auction, value: toNano('0.1'), body: textCommentBody('stop') });
    expect(await saleData(second.auction)).toMatchObject({ end: true, isCanceled: true });
    expect((await ownerOf(second.item)).equals(seller.address)).toBe(true);
  });
});

describe('NFT marketplace deployer (Tolk, GetGems-style): listing through it', () => {
  let bc: Blockchain;
  let seller: SandboxContract<TreasuryContract>;
  let buyer: SandboxContract<TreasuryContract>;
  let admin: SandboxContract<TreasuryContract>;
  let deployer: Address;
  let collection: Address;
  let nextIndex = 0;
  const ownerOf = async (item: Address) => {
    const r = (await bc.runGetMethod(item, 'get_nft_data')).stackReader;
    r.skip(3);
    return r.readAddress();
  };
  const mint = async () => {
    const index = nextIndex++;
    await seller.send({ to: collection, value: toNano('0.1'), body: nftMintBody({ index, owner: seller.address, individualContent: `${index}.json`, itemValue: toNano('0.05') }) });
    return nftItemAddress(collection, index);
  };
  const list = (item: Address, init: { code: Cell; data: Cell }, body?: Cell) =>
    seller.send({ to: item, value: toNano('0.25'), body: nftTransferBody({ newOwner: deployer, responseDestination: seller.address, forwardAmount: toNano('0.15'), forwardPayload: listingPayload(init, body) }) });

  beforeAll(async () => {
    bc = await Blockchain.create();
    bc.now = Math.floor(Date.now() / 1000);
    seller = await bc.treasury('seller');
    buyer = await bc.treasury('buyer');
    admin = await bc.treasury('admin');
    const d = nftDeployerInit(await compileDeployerContract(), { owner: admin.address });
    deployer = d.address;
    await admin.send({ to: deployer, value: toNano('1'), init: d.init, bounce: false });
    const c = nftCollectionInit({ owner: seller.address, collectionContent: onchainContent({ name: 'listed' }), commonContent: 'https://example/' });
    collection = c.address;
    await seller.send({ to: collection, value: toNano('0.1'), init: c.init, bounce: false });
  });

  const saleFor = (item: Address, createdAt: number) =>
    nftSaleInit({ marketplace: deployer, nft: item, fullPrice: toNano('2'), marketplaceFeeTo: admin.address, marketplaceFee: toNano('0.1'), royaltyTo: admin.address, royalty: toNano('0.1'), createdAt, nftOwner: seller.address });

  it('a sale: the deployer deploys it and hands it the item; bought, the seller is paid and the buyer owns the item', async () => {
    const item = await mint();
    const sale = saleFor(item, 1);
    await list(item, sale.init);
    expect((await ownerOf(item)).equals(sale.address)).toBe(true);
    const data = readSaleData((await bc.runGetMethod(sale.address, 'get_sale_data')).stack);
    expect(data.nftOwner!.equals(seller.address)).toBe(true);
    expect(data.marketplace!.equals(deployer)).toBe(true);
    const r = await buyer.send({ to: sale.address, value: toNano('3') });
    expect((await ownerOf(item)).equals(buyer.address)).toBe(true);
    const paid = r.transactions.filter((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(seller.address));
    expect(paid.map((t) => (t.inMessage!.info as { value: { coins: bigint } }).value.coins)[0]).toBeGreaterThan(toNano('1.7'));
  });

  it('a sale cancelled by its seller (op 3) gives the item back', async () => {
    const item = await mint();
    const sale = saleFor(item, 2);
    await list(item, sale.init);
    await seller.send({ to: sale.address, value: toNano('1'), body: saleCancelBody(5n) });
    expect((await ownerOf(item)).equals(seller.address)).toBe(true);
    expect(readSaleData((await bc.runGetMethod(sale.address, 'get_sale_data')).stack).isComplete).toBe(true);
  });

  it('an auction: opened by the item it is handed, the seller from its data', async () => {
    const item = await mint();
    const a = nftAuctionInit(await compileAuctionContract(), {
      marketplace: deployer,
      nft: item,
      createdAt: 3,
      duration: 3600,
      minBid: toNano('1'),
      maxBid: 0n,
      minStep: 10,
      marketplaceFee: { address: admin.address, factor: 5, base: 100 },
      royalty: { address: admin.address, factor: 5, base: 100 },
      nftOwner: seller.address,
    });
    await list(item, a.init, textCommentBody('deploy'));
    const data = readAuctionData((await bc.runGetMethod(a.address, 'get_sale_data')).stack);
    expect(data).toMatchObject({ end: false, endTime: BigInt(bc.now! + 3600) });
    expect(data.nftOwner!.equals(seller.address)).toBe(true);
    await buyer.send({ to: a.address, value: toNano('1') });
    await seller.send({ to: a.address, value: toNano('0.2'), body: textCommentBody('finish') });
    expect((await ownerOf(item)).equals(buyer.address)).toBe(true);
  });

  it('refuses an ownership_assigned without a listing, and proxies only its owner\'s messages', async () => {
    const item = await mint();
    const r = await seller.send({ to: item, value: toNano('0.25'), body: nftTransferBody({ newOwner: deployer, responseDestination: seller.address, forwardAmount: toNano('0.15') }) });
    const tx = r.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(deployer))!;
    expect(tx.description.type === 'generic' && tx.description.computePhase.type === 'vm' ? tx.description.computePhase.exitCode : null).toBe(404);
    const proxy = (mode: number) => beginCell().storeUint(555, 32).storeUint(mode, 8).storeRef(beginCell().store((b) => b).endCell()).endCell();
    const stranger = await seller.send({ to: deployer, value: toNano('0.1'), body: proxy(1) });
    const t2 = stranger.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(deployer))!;
    expect(t2.description.type === 'generic' && t2.description.computePhase.type === 'vm' ? t2.description.computePhase.exitCode : null).toBe(403);
  });
});

describe('multisig v2 (Tolk, multisig-contract-v2 interface)', () => {
  let bc: Blockchain;
  let code: MultisigCode;
  let signers: SandboxContract<TreasuryContract>[];
  let proposer: SandboxContract<TreasuryContract>;
  let stranger: SandboxContract<TreasuryContract>;
  let multisig: Address;
  const exitOn = (txs: BlockchainTransaction[], a: Address) => {
    const tx = txs.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(a));
    const c = tx && tx.description.type === 'generic' ? tx.description.computePhase : null;
    return c?.type === 'vm' ? c.exitCode : undefined;
  };
  const answersTo = (txs: BlockchainTransaction[], who: Address) =>
    txs
      .filter((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(who) && t.inMessage.info.src instanceof Address)
      .map((t) => readApproveAnswer(t.inMessage!.body))
      .filter((x) => x !== null);
  const msData = async () => readMultisigData((await bc.runGetMethod(multisig, 'get_multisig_data')).stack);
  const orderData = async (seqno: bigint) => readOrderData((await bc.runGetMethod(multisigOrderAddress(code, multisig, seqno), 'get_order_data')).stack);
  const pay = (to: Address, value: bigint, comment: string): MultisigAction => ({
    type: 'transfer',
    sendMode: 3,
    message: internal({ to, value, bounce: false, body: textCommentBody(comment) }),
  });
  const newOrder = (from: SandboxContract<TreasuryContract>, b: { seqno: bigint; isSigner: boolean; index: number; actions: MultisigAction[]; expiresIn?: number }) =>
    from.send({
      to: multisig,
      value: toNano('0.2'),
      body: multisigNewOrderBody({ queryId: 1n, orderSeqno: b.seqno, isSigner: b.isSigner, index: b.index, expirationDate: bc.now! + (b.expiresIn ?? 3600), order: packMultisigOrder(b.actions) }),
    });

  beforeAll(async () => {
    code = await compileMultisigContracts();
    bc = await Blockchain.create();
    bc.now = Math.floor(Date.now() / 1000);
    signers = [await bc.treasury('s0'), await bc.treasury('s1'), await bc.treasury('s2')];
    proposer = await bc.treasury('proposer');
    stranger = await bc.treasury('stranger');
    const init = multisigInit(code, { threshold: 2, signers: signers.map((s) => s.address), proposers: [proposer.address] });
    multisig = init.address;
    const r = await stranger.send({ to: multisig, value: toNano('20'), init: init.init, bounce: false });
    expect(exitOn(r.transactions, multisig)).toBe(0);
  });

  it('answers get_multisig_data and get_order_address as multisig-contract-v2 does', async () => {
    const d = await msData();
    expect(d.nextOrderSeqno).toBe(0n);
    expect(d.threshold).toBe(2);
    expect(d.signers.map((a) => a.toRawString())).toEqual(signers.map((s) => s.address.toRawString()));
    expect(d.proposers.map((a) => a.toRawString())).toEqual([proposer.address.toRawString()]);
    const r = await bc.runGetMethod(multisig, 'get_order_address', [{ type: 'int', value: 7n }]);
    expect(r.stackReader.readAddress().equals(multisigOrderAddress(code, multisig, 7n))).toBe(true);
  });

  it('a signer creates an order with its approval; the second approval executes it', async () => {
    const dest = await bc.treasury('dest');
    const created = await newOrder(signers[0], { seqno: 0n, isSigner: true, index: 0, actions: [pay(dest.address, toNano('3'), 'from the multisig')] });
    const order = multisigOrderAddress(code, multisig, 0n);
    expect(exitOn(created.transactions, order)).toBe(0);
    const pending = await orderData(0n);
    expect(pending).toMatchObject({ orderSeqno: 0n, threshold: 2, sentForExecution: false, approvalsNum: 1, approvalsMask: 1n });
    expect(pending.multisig.equals(multisig)).toBe(true);
    expect(parseMultisigOrder(pending.order!)).toMatchObject([{ type: 'transfer', sendMode: 3 }]);
    expect((await msData()).nextOrderSeqno).toBe(1n);

    const approved = await signers[2].send({ to: order, value: toNano('0.1'), body: multisigApproveBody(2, 9n) });
    expect(answersTo(approved.transactions, signers[2].address)).toEqual([0]);
    expect(exitOn(approved.transactions, multisig)).toBe(0);
    const paid = approved.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(dest.address));
    expect((paid!.inMessage!.info as { value: { coins: bigint } }).value.coins).toBe(toNano('3'));
    const done = await orderData(0n);
    expect(done).toMatchObject({ sentForExecution: true, approvalsNum: 2, approvalsMask: 5n });
    expect(approvedIndexes(done.approvalsMask!, 3)).toEqual([0, 2]);
    // Too late: the order is executed.
    const again = await signers[1].send({ to: order, value: toNano('0.1'), body: multisigApproveBody(1) });
    expect(answersTo(again.transactions, signers[1].address)).toEqual([MULTISIG_EXIT.alreadyExecuted]);
  });

  it('a proposer creates an order without approving; "approve" comments count; repeats are rejected', async () => {
    const r = await newOrder(proposer, { seqno: MULTISIG_NEXT_SEQNO, isSigner: false, index: 0, actions: [pay(stranger.address, toNano('1'), 'x')] });
    const order = multisigOrderAddress(code, multisig, 1n);
    expect(exitOn(r.transactions, order)).toBe(0);
    expect(await orderData(1n)).toMatchObject({ approvalsNum: 0, approvalsMask: 0n });
    const first = await signers[1].send({ to: order, value: toNano('0.1'), body: textCommentBody('approve') });
    expect(answersTo(first.transactions, signers[1].address)).toEqual([0]);
    const repeat = await signers[1].send({ to: order, value: toNano('0.1'), body: textCommentBody('approve') });
    expect(answersTo(repeat.transactions, signers[1].address)).toEqual([MULTISIG_EXIT.alreadyApproved]);
    expect(exitOn((await stranger.send({ to: order, value: toNano('0.1'), body: textCommentBody('approve') })).transactions, order)).toBe(MULTISIG_EXIT.unauthorizedSign);
    expect(exitOn((await stranger.send({ to: order, value: toNano('0.1'), body: multisigApproveBody(0) })).transactions, order)).toBe(MULTISIG_EXIT.unauthorizedSign);
    expect(await orderData(1n)).toMatchObject({ approvalsNum: 1, approvalsMask: 2n, sentForExecution: false });
  });

  it('refuses orders from strangers and out-of-sequence seqnos; an expired order rejects approvals', async () => {
    expect(exitOn((await newOrder(stranger, { seqno: 2n, isSigner: true, index: 0, actions: [pay(stranger.address, 1n, 'x')] })).transactions, multisig)).toBe(MULTISIG_EXIT.unauthorizedNewOrder);
    expect(exitOn((await newOrder(signers[0], { seqno: 5n, isSigner: true, index: 0, actions: [pay(stranger.address, 1n, 'x')] })).transactions, multisig)).toBe(MULTISIG_EXIT.invalidNewOrder);
    await newOrder(signers[0], { seqno: 2n, isSigner: true, index: 0, actions: [pay(stranger.address, 1n, 'x')], expiresIn: 60 });
    bc.now = bc.now! + 120;
    const late = await signers[1].send({ to: multisigOrderAddress(code, multisig, 2n), value: toNano('0.1'), body: multisigApproveBody(1) });
    expect(answersTo(late.transactions, signers[1].address)).toEqual([MULTISIG_EXIT.expired]);
    expect((await orderData(2n)).sentForExecution).toBe(false);
  });

  it('new_order must bring get_order_estimate, what the transactions from the order to its execution charge', async () => {
    const dest = await bc.treasury('estimate-dest');
    const computeFees = (t: BlockchainTransaction) => {
      const c = t.description.type === 'generic' ? t.description.computePhase : null;
      return c?.type === 'vm' ? c.gasFees : 0n;
    };
    for (const n of [1, 60]) {
      const seqno = (await msData()).nextOrderSeqno;
      const actions = Array.from({ length: n }, (_, i) => pay(dest.address, 1n, `payment ${i}`));
      const expirationDate = bc.now! + 3600;
      const body = (value: bigint) => ({
        to: multisig,
        value,
        body: multisigNewOrderBody({ queryId: 1n, orderSeqno: MULTISIG_NEXT_SEQNO, isSigner: true, index: 0, expirationDate, order: packMultisigOrder(actions) }),
      });
      const estimate = (await bc.runGetMethod(multisig, 'get_order_estimate', [{ type: 'cell', cell: packMultisigOrder(actions) }, { type: 'int', value: BigInt(expirationDate) }])).stackReader.readBigNumber();
      expect(exitOn((await signers[0].send(body(estimate - 1n))).transactions, multisig)).toBe(MULTISIG_EXIT.notEnoughTon);
      const made = await signers[0].send(body(estimate));
      expect(exitOn(made.transactions, multisigOrderAddress(code, multisig, seqno))).toBe(0);
      const approved = await signers[1].send({ to: multisigOrderAddress(code, multisig, seqno), value: toNano('0.1'), body: multisigApproveBody(1) });
      const execute = approved.transactions.find((t) => t.inMessage?.body.beginParse().preloadUint(32) === MULTISIG_OP.execute)!;
      expect(exitOn([execute], multisig)).toBe(0);
      expect(approved.transactions.filter((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(dest.address))).toHaveLength(n);
      // What the order's value paid for: all it brought but what reached the multisig with the execute,
      // plus the gas of that execute. The estimate covers it, without a flat margin far above it.
      const spent = estimate - (execute.inMessage!.info as { value: { coins: bigint } }).value.coins + computeFees(execute);
      expect(spent).toBeGreaterThan(0n);
      expect(estimate).toBeGreaterThanOrEqual(spent);
      expect(estimate).toBeLessThan(spent * 2n);
    }
  });

  it('an update_multisig_params order replaces threshold, signers and proposers', async () => {
    const update: MultisigAction = { type: 'update', threshold: 1, signers: [signers[0].address, signers[1].address], proposers: [] };
    const seqno = (await msData()).nextOrderSeqno;
    await newOrder(signers[0], { seqno, isSigner: true, index: 0, actions: [update] });
    const r = await signers[1].send({ to: multisigOrderAddress(code, multisig, seqno), value: toNano('0.1'), body: multisigApproveBody(1) });
    const executed = r.transactions.find((t) => t.inMessage?.body.beginParse().preloadUint(32) === MULTISIG_OP.execute);
    expect(executed).toBeDefined();
    const d = await msData();
    expect(d).toMatchObject({ nextOrderSeqno: seqno + 1n, threshold: 1, proposers: [] });
    expect(d.signers.map((a) => a.toRawString())).toEqual([signers[0].address.toRawString(), signers[1].address.toRawString()]);
  });
});
