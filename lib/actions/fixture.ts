// Reads a trace document in the ton-actions fixture format (lib/testing/fixtures/ton-actions/README.md)
// into the classifier's input model.
import { DNS_COLLECTION, DNS_ITEM_CODE_HASH } from './addresses';
import type { AccountInterfaces, Trace, TraceMessage, TraceTransaction } from './model';

/* eslint-disable @typescript-eslint/no-explicit-any -- a JSON document, checked field by field */
const big = (v: any): bigint | null => (v === null || v === undefined ? null : BigInt(v));
/** An item index: exact when the document has it as an integer; a float the JSON rounded (a Telegram item's 256-bit index) is null. */
const bigIndex = (v: any): bigint | null => (typeof v === 'number' && !Number.isSafeInteger(v) ? null : big(v));

function message(m: any): TraceMessage {
  const body = m.message_content?.body;
  return {
    hash: m.msg_hash,
    source: m.source ?? null,
    destination: m.destination ?? null,
    value: big(m.value),
    fwdFee: big(m.fwd_fee),
    bounce: m.bounce ?? null,
    bounced: m.bounced ?? null,
    createdLt: big(m.created_lt),
    opcode: m.opcode === null || m.opcode === undefined ? null : m.opcode >>> 0,
    body: body ? Buffer.from(body, 'base64') : null,
  };
}

function transaction(t: any): TraceTransaction {
  const msgs: any[] = t.messages ?? [];
  const inMsg = msgs.find((m) => m.direction === 'in');
  return {
    hash: t.hash,
    account: t.account,
    lt: BigInt(t.lt),
    now: t.now,
    mcSeqno: t.mc_block_seqno ?? null,
    origStatus: t.orig_status,
    endStatus: t.end_status,
    aborted: !!t.aborted,
    computeExitCode: t.compute_exit_code ?? null,
    tickTock: t.descr === 'tick_tock',
    inMsg: inMsg ? message(inMsg) : null,
    outMsgs: msgs.filter((m) => m.direction === 'out').map(message),
  };
}

function interfaces(v: any): AccountInterfaces {
  const out: AccountInterfaces = {};
  if (v.JettonWallet) out.jettonWallet = { owner: v.JettonWallet.owner, jetton: v.JettonWallet.jetton, balance: big(v.JettonWallet.balance) };
  if (v.NftItem) {
    const n = v.NftItem;
    out.nftItem = {
      collection: n.collection_address ?? null,
      index: bigIndex(n.index),
      owner: n.owner_address ?? null,
      init: !!n.init,
      uri: typeof n.content?.uri === 'string' ? n.content.uri : null,
      dns: n.code_hash === DNS_ITEM_CODE_HASH || n.collection_address === DNS_COLLECTION,
    };
  }
  if (v.DedustPool) out.dedustPool = { assets: v.DedustPool.assets.map((a: any) => (a.is_ton ? null : a.address)) };
  if (v.NftSale) {
    const s = v.NftSale;
    out.nftSale = {
      marketplace: s.marketplace_address ?? null,
      nft: s.nft_address ?? null,
      owner: s.nft_owner_address ?? null,
      price: big(s.full_price),
      marketplaceFeeAddress: s.marketplace_fee_address ?? null,
      marketplaceFee: big(s.marketplace_fee),
      royaltyAddress: s.royalty_address ?? null,
      royaltyAmount: big(s.royalty_amount),
    };
  }
  if (v.NftAuction) {
    const a = v.NftAuction;
    out.nftAuction = {
      marketplace: a.mp_addr ?? null,
      nft: a.nft_addr ?? null,
      owner: a.nft_owner ?? null,
      lastBid: big(a.last_bid),
      mpFeeAddress: a.mp_fee_addr ?? null,
      mpFeeFactor: big(a.mp_fee_factor),
      mpFeeBase: big(a.mp_fee_base),
      royaltyAddress: a.royalty_fee_addr ?? null,
      royaltyBase: big(a.royalty_fee_base),
      maxBid: big(a.max_bid),
      minBid: big(a.min_bid),
    };
  }
  if (v.NominatorPool) out.nominatorPool = true;
  if (v.data_boc?.data_boc) out.dataBoc = Buffer.from(v.data_boc.data_boc, 'base64');
  return out;
}

/** A fixture trace document (parsed JSON) as the classifier's input. */
export function traceFromDocument(doc: any): { trace: Trace; interfaces: Map<string, AccountInterfaces> } {
  const t = doc.trace;
  const trace: Trace = {
    traceId: t.trace_id,
    externalHash: t.external_hash ?? null,
    mcSeqnoEnd: t.mc_seqno_end,
    endLt: BigInt(t.end_lt),
    endUtime: t.end_utime,
    transactions: (doc.transactions as any[]).map(transaction),
  };
  const map = new Map<string, AccountInterfaces>();
  for (const [address, v] of Object.entries(doc.interfaces ?? {})) map.set(address, interfaces(v));
  return { trace, interfaces: map };
}
