// Pending traces replayed against the chain (issue 15: "an emulated trace equals the real one for every
// devnet action type"). On one indexed devnet (genesis plus a round of traffic), each action type the
// devnet produced is caused once more by a signed external built with the traffic generator's message
// builders (or the contract body builders the genesis uses): the message goes through the real pending
// path (v2 sendBoc → emulation → pendingTraces), then the chain seals it, the index catches up, and the
// emulated trace must equal the real one from /api/v3/traces transaction by transaction and action by
// action. The table's keys must be exactly the action types (and failed variants) the devnet produced,
// so an action type added to the genesis or the traffic later fails here until it has a replay case.
import { Address, beginCell, Cell, internal, toNano, type Message } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionJson } from '../api/v3/models/actions';
import type { MessageJson } from '../api/v3/models/messages';
import type { TraceJson } from '../api/v3/models/traces';
import type { TransactionJson } from '../api/v3/models/transactions';
import { textCommentBody, offchainContent } from '../devnet/contracts/common';
import { dnsChangeRecordBody } from '../devnet/contracts/dns';
import { jettonMinterInit } from '../devnet/contracts/jetton';
import { compileMultisigContracts, multisigOrderAddress } from '../devnet/contracts/multisig';
import { compileAuctionContract, nftAuctionInit } from '../devnet/contracts/auction';
import { listingPayload } from '../devnet/contracts/marketplace';
import { nftMintBody, nftTransferBody } from '../devnet/contracts/nft';
import { createTrafficGenerator } from '../devnet/genesis';
import { vestingAddWhitelistBody, vestingSendBody } from '../devnet/contracts/vesting';
import { createWallet } from '../devnet/contracts/wallets';
import { chainNow } from '../devnet/genesis/driver';
import { GENESIS_MULTISIG } from '../devnet/genesis/genesis';
import * as traffic from '../devnet/genesis/traffic-messages';
import type { OutgoingMessage, WalletHandle } from '../devnet/genesis/wallet-handle';
import { startTestChain, type TestChain } from '../testing/chain';
import { messageBoc } from '../testing/devnet';
import { genesisWalletHandles } from '../testing/wallets';
import { readMultisigData, multisigApproveBody, multisigNewOrderBody, packMultisigOrder } from '../ton/multisig';
import { readCollectionData, readNftData } from '../ton/nft-getters';

const SEED = 'pending-replay';

let chain: TestChain;
let wallets: Map<string, WalletHandle>;
/** The action types the devnet produced before the replay, as `type` or `type (failed)`. */
let produced: string[];

const addr = (name: string) => Address.parseRaw(chain.account(name).address);
const wallet = (name: string) => {
  const h = wallets.get(name);
  if (!h) throw new Error(`no genesis wallet ${name}`);
  return h;
};
const keyOf = (a: { type: string; success: boolean | null }) => (a.success === false ? `${a.type} (failed)` : a.type);

/** A get-method of the chain's current state (the sandbox the devnet seals), as a TVM stack. */
const getMethod = async (address: Address, method: string, args: { type: 'int'; value: bigint }[] = []) => (await chain.devnet.chain.blockchain.runGetMethod(address, method, args)).stack;

/** The genesis wallet that owns NFT `item` now (the traffic moves NFTs around). */
async function nftOwner(item: Address): Promise<WalletHandle> {
  const owner = readNftData(await getMethod(item, 'get_nft_data')).owner;
  const h = [...wallets.values()].find((w) => owner && w.address.equals(owner));
  if (!h) throw new Error(`${item.toRawString()} is owned by ${owner?.toRawString()}, not a genesis wallet`);
  return h;
}

/** The next order seqno of the genesis multisig and that order's address. */
async function nextOrder(): Promise<{ seqno: bigint; address: Address }> {
  const seqno = readMultisigData(await getMethod(addr('multisig'), 'get_multisig_data')).nextOrderSeqno;
  return { seqno, address: multisigOrderAddress(await compileMultisigContracts(), addr('multisig'), seqno) };
}
/** The order the multisig cases work on (created by the create case, approved by the next two). */
let order: { seqno: bigint; address: Address } | null = null;

interface Case {
  /** The action type (`type (failed)` for success false) the message produces. */
  key: string;
  /** The genesis wallet that signs the external and the messages it sends. */
  build(): Promise<{ from: WalletHandle; messages: OutgoingMessage[] }>;
}

// In the order they run: the multisig cases build on each other.
const CASES: Case[] = [
  { key: 'ton_transfer', build: async () => ({ from: wallet('alice'), messages: [{ to: addr('bob'), value: toNano('0.3'), bounce: true, body: textCommentBody('replayed 🔁') }] }) },
  {
    key: 'ton_transfer (failed)',
    build: async () => ({ from: wallet('bob'), messages: [traffic.bounceMessage({ nowhere: traffic.nowhereAddress(SEED, 1_000_000), value: toNano('0.5'), body: textCommentBody('to nowhere') })] }),
  },
  { key: 'call_contract', build: async () => ({ from: wallet('carol'), messages: [traffic.binaryMessage({ to: addr('alice'), op: 0x1234abcd, payload: Buffer.alloc(24, 7) })] }) },
  { key: 'call_contract (failed)', build: async () => ({ from: wallet('alice'), messages: [traffic.abortMessage({ minter: addr('jetton_minter'), n: 1 })] }) },
  {
    key: 'contract_deploy',
    build: async () => {
      const minter = jettonMinterInit(addr('alice'), offchainContent('https://atlas.devnet/jettons/replay.json'));
      return { from: wallet('alice'), messages: [{ to: minter.address, value: toNano('0.1'), bounce: false, init: minter.init }] };
    },
  },
  {
    // A deployment whose code cannot run: a v5 beta wallet, whose code is a library the devnet lacks (as
    // the genesis deploys wallet_v5beta); the account keeps its state init, the compute phase fails.
    key: 'contract_deploy (failed)',
    build: async () => {
      const w = createWallet('wallet_v5beta', Buffer.alloc(32, 0x5b));
      return { from: wallet('alice'), messages: [{ to: w.address, value: toNano('0.1'), bounce: false, init: w.init }] };
    },
  },
  {
    key: 'jetton_transfer',
    build: async () => ({
      from: wallet('alice'),
      messages: [
        traffic.jettonTransferMessage({
          jettonWallet: addr('alice_jetton'),
          from: addr('alice'),
          to: addr('bob'),
          amount: 4_321n,
          forwardTonAmount: toNano('0.005'),
          forwardPayload: textCommentBody('replayed jettons'),
          queryId: 1n,
        }),
      ],
    }),
  },
  {
    key: 'jetton_transfer (failed)',
    build: async () => ({
      from: wallet('carol'),
      messages: [
        traffic.jettonTransferMessage({ jettonWallet: addr('carol_jetton'), from: addr('carol'), to: addr('bob'), amount: 10n ** 30n, forwardTonAmount: 0n, forwardPayload: null, queryId: 2n }),
      ],
    }),
  },
  {
    key: 'jetton_mint',
    build: async () => ({ from: wallet('admin'), messages: [traffic.jettonMintMessage({ minter: addr('jetton_minter'), admin: addr('admin'), to: addr('carol'), amount: 777n, queryId: 3n })] }),
  },
  { key: 'jetton_burn', build: async () => ({ from: wallet('bob'), messages: [traffic.jettonBurnMessage({ jettonWallet: addr('bob_jetton'), from: addr('bob'), amount: 55n, queryId: 4n })] }) },
  {
    key: 'nft_mint',
    build: async () => {
      const next = readCollectionData(await getMethod(addr('nft_collection'), 'get_collection_data')).nextItemIndex;
      const body = nftMintBody({ index: next, owner: addr('carol'), individualContent: `${next}.json`, itemValue: toNano('0.05'), queryId: 5n });
      return { from: wallet('admin'), messages: [{ to: addr('nft_collection'), value: toNano('0.1'), bounce: true, body }] };
    },
  },
  {
    key: 'nft_transfer',
    build: async () => {
      const from = await nftOwner(addr('nft_item_0'));
      const to = from.name === 'alice' ? addr('bob') : addr('alice');
      return { from, messages: [traffic.nftTransferMessage({ item: addr('nft_item_0'), from: from.address, to, forwardAmount: toNano('0.01'), forwardPayload: textCommentBody('replayed card') })] };
    },
  },
  {
    // A soulbound badge refuses the transfer: the request bounces back.
    key: 'nft_transfer (failed)',
    build: async () => ({ from: wallet('bob'), messages: [traffic.nftTransferMessage({ item: addr('sbt_item_0'), from: addr('bob'), to: addr('alice'), forwardAmount: 0n, forwardPayload: null })] }),
  },
  {
    key: 'change_dns',
    build: async () => {
      const from = await nftOwner(addr('alice.ton'));
      return { from, messages: [traffic.dnsWalletRecordMessage({ item: addr('alice.ton'), target: addr('carol') })] };
    },
  },
  {
    key: 'renew_dns',
    build: async () => {
      const from = await nftOwner(addr('alice.ton'));
      return { from, messages: [{ to: addr('alice.ton'), value: toNano('0.05'), bounce: true, body: dnsChangeRecordBody({ category: 0n, record: null, queryId: 6n }) }] };
    },
  },
  {
    key: 'vesting_add_whitelist',
    build: async () => ({ from: wallet('admin'), messages: [{ to: addr('vesting'), value: toNano('0.1'), bounce: true, body: vestingAddWhitelistBody({ addresses: [addr('wallet_v3r2')], queryId: 7n }) }] }),
  },
  {
    key: 'vesting_send_message',
    build: async () => {
      // Not to a whitelisted address (there the contract takes only staking messages).
      const message = internal({ to: addr('wallet_v4r2'), value: toNano('0.1'), bounce: true, body: textCommentBody('replayed from the vesting wallet') });
      return { from: wallet('alice'), messages: [{ to: addr('vesting'), value: toNano('0.1'), bounce: true, body: vestingSendBody({ queryId: 8n, message }) }] };
    },
  },
  {
    // The proposer's order: no approval yet.
    key: 'multisig_create_order',
    build: async () => {
      order = await nextOrder();
      const actions = packMultisigOrder([
        { type: 'transfer', sendMode: 3, message: internal({ to: addr('wallet_v4r2'), value: toNano('0.5'), bounce: true, body: textCommentBody('replayed order') }) },
      ]);
      const body = multisigNewOrderBody({ queryId: 9n, orderSeqno: order.seqno, isSigner: false, index: 0, expirationDate: GENESIS_MULTISIG.expiresAt, order: actions });
      return { from: wallet('admin'), messages: [{ to: addr('multisig'), value: toNano('0.2'), bounce: true, body }] };
    },
  },
  {
    // The first approval (alice, signer 0): one of two, nothing executes.
    key: 'multisig_approve',
    build: async () => ({ from: wallet('alice'), messages: [{ to: order!.address, value: toNano('0.1'), bounce: true, body: multisigApproveBody(0, 10n) }] }),
  },
  {
    // The second approval, an "approve" comment from bob: the order executes.
    key: 'multisig_execute',
    build: async () => ({ from: wallet('bob'), messages: [{ to: order!.address, value: toNano('0.1'), bounce: true, body: textCommentBody('approve') }] }),
  },
  {
    // A card listed through the marketplace's deployer on an auction (the bids below go to it).
    key: 'nft_put_on_auction',
    build: async () => {
      const item = await heldCard();
      const from = await nftOwner(item);
      const a = nftAuctionInit(await compileAuctionContract(), {
        marketplace: addr('nft_marketplace'),
        nft: item,
        createdAt: 1_767_225_600 + 77,
        duration: 3600,
        minBid: toNano('1'),
        maxBid: toNano('10'),
        minStep: 10,
        marketplaceFee: { address: addr('admin'), factor: 5, base: 100 },
        royalty: { address: addr('admin'), factor: 5, base: 100 },
        nftOwner: from.address,
      });
      listed = { auction: a.address, seller: from.name };
      const body = nftTransferBody({ newOwner: addr('nft_marketplace'), responseDestination: from.address, forwardAmount: toNano('0.15'), forwardPayload: listingPayload(a.init, textCommentBody('deploy')), queryId: 11n });
      return { from, messages: [{ to: item, value: toNano('0.25'), bounce: true, body }] };
    },
  },
  // The first bid, a second that outbids it (the first bidder is refunded), and a bid at the maximum that buys the card.
  { key: 'auction_bid', build: async () => ({ from: bidder(0), messages: [{ to: listed!.auction, value: toNano('1'), bounce: true }] }) },
  { key: 'auction_outbid', build: async () => ({ from: bidder(1), messages: [{ to: listed!.auction, value: toNano('2'), bounce: true }] }) },
  { key: 'nft_purchase', build: async () => ({ from: bidder(0), messages: [{ to: listed!.auction, value: toNano('10'), bounce: true }] }) },
];

/** The auction the listing case opened, and its seller's wallet name. */
let listed: { auction: Address; seller: string } | null = null;
/** The n-th bidder of the listed auction: a wallet other than the seller. */
const bidder = (n: number) => wallet(['alice', 'bob', 'carol'].filter((w) => w !== listed!.seller)[n]!);

/** A card of the genesis collection a genesis wallet holds now. */
async function heldCard(): Promise<Address> {
  for (const name of ['nft_item_0', 'nft_item_2', 'nft_item_4']) {
    const owner = readNftData(await getMethod(addr(name), 'get_nft_data')).owner;
    if (owner && [...wallets.values()].some((w) => w.address.equals(owner))) return addr(name);
  }
  throw new Error('no card held by a genesis wallet');
}

beforeAll(async () => {
  chain = await startTestChain({ seed: SEED, rounds: 1, index: true, derive: true });
  // A marketplace listing made by the traffic's own move, so the devnet has produced nft_put_on_auction.
  const market = createTrafficGenerator(chain.devnet.chain, chain.devnet.genesisAccounts, { seed: SEED, tps: 0 });
  expect(await market.market('list_auction')).toEqual({ move: 'list_auction', sent: true });
  await chain.seal();
  wallets = await genesisWalletHandles(chain);
  // The chain's clock pinned an hour ahead, and one block sealed at that time: the emulation runs at the
  // latest block's time (it is ahead of the wall clock) and the chain at its pinned time, the same second
  // (storage fees, and what depends on them, follow the time).
  const bc = chain.devnet.chain.blockchain;
  bc.now = Math.floor(Date.now() / 1000) + 3600;
  await chain.seal();
  const rows = await chain.db!.db.prisma.action.findMany({ distinct: ['type', 'success'], select: { type: true, success: true } });
  produced = [...new Set(rows.map(keyOf))].sort();
}, 180_000);
afterAll(() => chain?.close());

const bocOf = (m: Message) => messageBoc(m).toString('base64');

/**
 * A query id some contracts take from their logical time (multisig v2's order answering an "approve"
 * comment uses its transaction's lt, as TON's contract does): lts differ between the emulation (it
 * continues from each account's last transaction) and the chain (its block's start lt), so a query id
 * within `lo..hi`, the lts of the transactions involved, stands for "an lt".
 */
const ltMasked = (q: bigint, lo: bigint, hi: bigint) => (q >= lo && q <= hi ? 'lt' : q.toString());

/** A body as both sides must agree on: the BoC, or its opcode, lt-masked query id and the rest's hash when its query id is an lt. */
function bodyShape(boc: string | undefined, lo: bigint, hi: bigint) {
  if (!boc) return null;
  const s = Cell.fromBase64(boc).beginParse();
  if (s.remainingBits < 96) return boc;
  const op = s.loadUint(32);
  const q = s.loadUintBig(64);
  return ltMasked(q, lo, hi) === 'lt' ? { op, query_id: 'lt', rest: beginCell().storeSlice(s).endCell().hash().toString('base64') } : boc;
}

/**
 * A message as both sides must agree on. Left out: `hash` and `created_lt` / `created_at` (an internal
 * message holds its sender's lt and time: the emulation's lt continues from the account's last
 * transaction, the chain's from its block's start lt, and the emulation runs before the block exists);
 * `in_msg_tx_hash` / `out_msg_tx_hash` (transaction hashes cover lt and time too).
 */
const messageShape = (m: MessageJson | null, lo: bigint, hi: bigint) =>
  m && {
    source: m.source,
    destination: m.destination,
    value: m.value,
    fwd_fee: m.fwd_fee,
    ihr_fee: m.ihr_fee,
    opcode: m.opcode,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: m.import_fee,
    body: bodyShape(m.message_content?.body, lo, hi),
    init_state: m.init_state?.hash ?? null,
  };

/**
 * A transaction as both sides must agree on: everything but its own hash, lt, time, block and
 * neighbours (prev_trans_*) and the account states (hashes covering lt and time; an emulated
 * transaction's states carry only their hashes), and the action-list hash of its action phase (the
 * actions are the out-messages, which carry created_lt). `lo..hi`: the trace's lts.
 */
function transactionShape(t: TransactionJson, lo: bigint, hi: bigint) {
  const { action, ...description } = t.description;
  const phase = action && { ...action, action_list_hash: undefined };
  return JSON.stringify({
    account: t.account,
    orig_status: t.orig_status,
    end_status: t.end_status,
    total_fees: t.total_fees,
    description: { ...description, action: phase },
    in_msg: messageShape(t.in_msg, lo, hi),
    out_msgs: t.out_msgs.map((m) => JSON.stringify(messageShape(m, lo, hi))).sort(),
  });
}

/** JSON with every object's keys sorted: the index keeps details as jsonb, which orders keys its own way. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

/**
 * An action as both sides must agree on: type, success, details and how many transactions it spans.
 * Left out: its id and trace id (hashes of transactions), lts, times and mc seqnos; a query id in the
 * details that is an lt (see ltMasked); `accounts` (the /traces route leaves it out of actions).
 */
function actionShape(a: ActionJson, lo: bigint, hi: bigint) {
  const q = a.details.query_id;
  const details = typeof q === 'string' && /^\d+$/.test(q) ? { ...a.details, query_id: ltMasked(BigInt(q), lo, hi) } : a.details;
  return canonical({ type: a.type, success: a.success, details, transactions: a.transactions.length });
}

const transactionsOf = (t: TraceJson) => Object.values(t.transactions ?? {});

/** A trace's transactions and actions as comparable shapes. */
function traceShape(t: TraceJson) {
  const txs = transactionsOf(t);
  const lts = txs.map((x) => BigInt(x.lt));
  const lo = lts.reduce((m, x) => (x < m ? x : m));
  const hi = lts.reduce((m, x) => (x > m ? x : m));
  return { transactions: txs.map((x) => transactionShape(x, lo, hi)).sort(), actions: (t.actions ?? []).map((a) => actionShape(a, lo, hi)).sort() };
}

describe('an emulated trace equals the real one', () => {
  it('the replay cases are exactly the action types the devnet produced', () => {
    expect(CASES.map((c) => c.key).sort()).toEqual(produced);
  });

  it.each(CASES.map((c) => [c.key, c] as const))('%s', async (key, c) => {
    const { from, messages } = await c.build();
    const ext = await from.external(messages, chainNow(chain.devnet.chain.blockchain));
    const hash = Cell.fromBoc(messageBoc(ext))[0]!.hash().toString('base64');
    const sent = await chain.callV2('post', 'sendBoc', { boc: bocOf(ext) });
    expect(sent.body.ok, JSON.stringify(sent.body)).toBe(true);
    from.accepted();
    await chain.pending!.idle();
    const pending = await chain.callV3<{ traces: TraceJson[] | null; rejected?: unknown }>('pendingTraces', { ext_msg_hash: hash });
    expect(pending.body.traces, pending.text).toHaveLength(1);
    const emulated = pending.body.traces![0]!;
    expect(emulated.trace_info.classification_state).toBe('ok');
    expect(emulated.is_incomplete).toBe(false);

    await chain.seal();
    const r = await chain.callV3<{ traces: TraceJson[] }>('traces', { msg_hash: hash, include_actions: true });
    expect(r.body.traces, r.text).toHaveLength(1);
    const real = r.body.traces[0]!;
    expect(real.trace_info.trace_state).toBe('complete');

    const [e, r2] = [traceShape(emulated), traceShape(real)];
    expect(e.transactions).toEqual(r2.transactions);
    expect(e.actions).toEqual(r2.actions);
    // The case makes what it is named after.
    expect(real.actions!.map(keyOf)).toContain(key);
  });
});
