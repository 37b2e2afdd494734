// The classifier's input built from stored rows (lib/actions/model.ts Trace): the one place that knows
// how a trace's transactions and messages map to it, used when a trace completes and by reclassify.
import { Cell } from '@ton/core';
import { Prisma } from '../db/generated/client';
import { DNS_COLLECTION } from '../actions/addresses';
import type { AccountInterfaces, Trace, TraceMessage, TraceTransaction } from '../actions/model';
import { contractMethods } from '../ton/contract-methods';
import { bocCell, detectInterfaces } from '../ton/interfaces';
import { rawUpper } from '../ton/address';
import { saleInterfaces, type SaleRow } from './derive/nft';
import type { ParsedTransaction } from '../chain/parse-transaction';
import type { MessageRecord, TransactionDescrJson, TransactionRecord } from '../chain/records';
import type { TraceHead } from './traces';
import { byteaList, run, type Tx } from './sql';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const big = (v: string | null) => (v === null ? null : BigInt(v));

interface TraceRow {
  trace_id: Uint8Array;
  external_hash: Uint8Array | null;
  external_hash_norm: Uint8Array | null;
  mc_seqno_end: number;
  end_lt: bigint;
  end_utime: number;
}
interface TxRow {
  trace_id: Uint8Array;
  hash: Uint8Array;
  account: string;
  lt: bigint;
  now: number;
  mc_block_seqno: number | null;
  orig_status: string;
  end_status: string;
  description: TransactionDescrJson;
}
interface MsgRow {
  tx_hash: Uint8Array;
  msg_hash: Uint8Array;
  direction: string;
  source: string | null;
  destination: string | null;
  value: string | null;
  fwd_fee: string | null;
  bounce: boolean | null;
  bounced: boolean | null;
  created_lt: bigint | null;
  opcode: number | null;
  body: Uint8Array | null;
}

/**
 * The stored traces with these ids as classifier input (their transactions in lt order). `norms`, when
 * given, receives each trace's external_hash_norm (base64) by trace_id (base64): the actions' column.
 */
export async function loadTraces(tx: Tx, traceIds: Buffer[], norms?: Map<string, string | null>): Promise<Trace[]> {
  if (traceIds.length === 0) return [];
  const ids = byteaList(traceIds);
  const traces = await run<TraceRow>(tx, Prisma.sql`SELECT trace_id, external_hash, external_hash_norm, mc_seqno_end, end_lt, end_utime FROM traces WHERE trace_id IN ${ids}`);
  for (const r of traces) norms?.set(b64(r.trace_id), r.external_hash_norm ? b64(r.external_hash_norm) : null);
  const txs = await run<TxRow>(tx, Prisma.sql`
    SELECT trace_id, hash, account, lt, now, mc_block_seqno, orig_status, end_status, description
    FROM transactions WHERE trace_id IN ${ids} ORDER BY lt`);
  // Amounts as text: a driver's numeric (string) and Prisma's (Decimal) alike.
  const msgs = await run<MsgRow>(tx, Prisma.sql`
    SELECT m.tx_hash, m.msg_hash, m.direction, m.source, m.destination, m.value::text AS value, m.fwd_fee::text AS fwd_fee, m.bounce, m.bounced,
      m.created_lt, m.opcode, c.boc AS body
    FROM messages m LEFT JOIN message_contents c ON c.hash = m.body_hash WHERE m.trace_id IN ${ids}`);

  const byTx = new Map<string, MsgRow[]>();
  for (const m of msgs) byTx.set(b64(m.tx_hash), [...(byTx.get(b64(m.tx_hash)) ?? []), m]);
  const byTrace = new Map<string, TraceTransaction[]>();
  for (const t of txs) {
    const own = byTx.get(b64(t.hash)) ?? [];
    const inMsg = own.find((m) => m.direction === 'in');
    const list = byTrace.get(b64(t.trace_id)) ?? [];
    list.push(
      traceTransaction(
        { hash: t.hash, account: t.account, lt: BigInt(t.lt), now: t.now, mcSeqno: t.mc_block_seqno, origStatus: t.orig_status, endStatus: t.end_status, description: t.description },
        inMsg ? message(inMsg) : null,
        own.filter((m) => m.direction === 'out').map(message),
      ),
    );
    byTrace.set(b64(t.trace_id), list);
  }
  return traces.map((r) => ({
    traceId: b64(r.trace_id),
    externalHash: r.external_hash ? b64(r.external_hash) : null,
    mcSeqnoEnd: r.mc_seqno_end,
    endLt: BigInt(r.end_lt),
    endUtime: r.end_utime,
    transactions: byTrace.get(b64(r.trace_id)) ?? [],
  }));
}

interface TxFields extends Pick<TraceTransaction, 'account' | 'lt' | 'now' | 'mcSeqno' | 'origStatus' | 'endStatus'> {
  hash: Uint8Array;
  description: TransactionDescrJson;
}

function traceTransaction(t: TxFields, inMsg: TraceMessage | null, outMsgs: TraceMessage[]): TraceTransaction {
  const compute = t.description.compute_ph;
  return {
    hash: b64(t.hash),
    account: t.account,
    lt: t.lt,
    now: t.now,
    mcSeqno: t.mcSeqno,
    origStatus: t.origStatus,
    endStatus: t.endStatus,
    aborted: !!t.description.aborted,
    computeExitCode: compute && !compute.skipped ? compute.exit_code : null,
    tickTock: t.description.type === 'tick_tock',
    inMsg,
    outMsgs,
  };
}

/**
 * Transactions parsed from their cells (lib/chain/parse-transaction.ts) but not stored — the pending
 * traces' emulated ones (lib/pending) — as classifier input, the same shape loadTraces gives stored ones.
 */
export function parsedTraceTransactions(parsed: ParsedTransaction[]): TraceTransaction[] {
  const bodies = new Map(parsed.flatMap((p) => p.contents.map((c) => [c.hash.toString('hex'), c.cell] as const)));
  return recordTraceTransactions(
    parsed.map((p) => p.transaction),
    parsed.flatMap((p) => p.messages),
    (hash) => bodies.get(hash)?.toBoc() ?? null,
  );
}

/**
 * The traces of a batch being stored whose every transaction is in it (traces.ts TraceAssembly.whole), as
 * classifier input from the batch's records: what loadTraces would read back once they are written.
 * `bodies`: the batch's message contents (BoCs) by hash (hex).
 */
export function batchTraces(
  heads: Iterable<TraceHead>,
  traceOf: Map<string, Buffer>,
  transactions: TransactionRecord[],
  messages: MessageRecord[],
  bodies: Map<string, Buffer>,
): Trace[] {
  const byTrace = new Map<string, TransactionRecord[]>();
  for (const t of transactions) {
    const trace = traceOf.get(t.hash.toString('hex'));
    if (!trace) continue;
    const k = trace.toString('hex');
    const list = byTrace.get(k);
    if (list) list.push(t);
    else byTrace.set(k, [t]);
  }
  const own = messagesByTransaction(messages);
  const body = (hash: string) => bodies.get(hash) ?? null;
  return [...heads].map((h) => {
    // In lt order, as loadTraces reads them.
    const txs = (byTrace.get(h.traceId.toString('hex')) ?? []).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    return {
      traceId: b64(h.traceId),
      externalHash: h.externalHash ? b64(h.externalHash) : null,
      mcSeqnoEnd: h.mcSeqnoEnd,
      endLt: h.endLt,
      endUtime: h.endUtime,
      transactions: recordTraceTransactions(txs, txs.flatMap((t) => own.get(t.hash.toString('hex')) ?? []), body),
    };
  });
}

function messagesByTransaction(messages: MessageRecord[]): Map<string, MessageRecord[]> {
  const own = new Map<string, MessageRecord[]>();
  for (const m of messages) {
    const k = m.txHash.toString('hex');
    const list = own.get(k);
    if (list) list.push(m);
    else own.set(k, [m]);
  }
  return own;
}

/** Transaction and message records as classifier input; `body` gives a message body's BoC by hash (hex). */
function recordTraceTransactions(transactions: TransactionRecord[], messages: MessageRecord[], body: (hash: string) => Buffer | null): TraceTransaction[] {
  const msg = (m: MessageRecord): TraceMessage => ({
    hash: b64(m.msgHash),
    source: m.source,
    destination: m.destination,
    value: m.value,
    fwdFee: m.fwdFee,
    bounce: m.bounce,
    bounced: m.bounced,
    createdLt: m.createdLt,
    opcode: m.opcode === null ? null : m.opcode >>> 0,
    body: body(m.bodyHash.toString('hex')),
  });
  const own = messagesByTransaction(messages);
  return transactions.map((t) => {
    const mine = own.get(t.hash.toString('hex')) ?? [];
    const inMsg = mine.find((m) => m.direction === 'in');
    return traceTransaction(
      { hash: t.hash, account: t.account, lt: t.lt, now: t.now, mcSeqno: t.mcBlockSeqno, origStatus: t.origStatus, endStatus: t.endStatus, description: t.description },
      inMsg ? msg(inMsg) : null,
      mine.filter((m) => m.direction === 'out').map(msg),
    );
  });
}

function message(m: MsgRow): TraceMessage {
  return {
    hash: b64(m.msg_hash),
    source: m.source,
    destination: m.destination,
    value: big(m.value),
    fwdFee: big(m.fwd_fee),
    bounce: m.bounce,
    bounced: m.bounced,
    createdLt: m.created_lt === null ? null : BigInt(m.created_lt),
    // Stored signed (toncenter's int32); the classifier compares unsigned opcodes.
    opcode: m.opcode === null ? null : m.opcode >>> 0,
    body: m.body ? Buffer.from(m.body) : null,
  };
}

const JETTON_WALLETS = new Set(['jetton_wallet', 'jetton_wallet_v1', 'jetton_wallet_v2', 'jetton_wallet_governed']);

/**
 * "What is at address X" as far as the index knows. The tables the derive stage writes (lib/indexer/
 * derive: jetton wallets, NFT items with SBTs and .ton names, GetGems sales and auctions) come first:
 * their rows are what the contracts' get-methods answered, and they are written in the same database
 * transaction before the block's traces are classified (store.ts), so an item minted by the block is
 * known to the block's own traces. Without the derive stage (or for an account it did not recognize),
 * the latest state's code (interface detection of lib/ton/interfaces.ts) and data (a jetton
 * wallet's owner and master read from the standard layout). One statement for all tables and addresses.
 */
export async function addressInterfaces(tx: Tx, addresses: string[]): Promise<Map<string, AccountInterfaces>> {
  const out = new Map<string, AccountInterfaces>();
  if (addresses.length === 0) return out;
  const { rows, wallets, items, sales, orders } = await interfaceRows(tx, addresses);
  const at = (a: string) => {
    let info = out.get(a);
    if (!info) out.set(a, (info = {}));
    return info;
  };
  for (const r of rows) {
    const info = at(r.account);
    const names = interfacesOfCode(r.code_hash, r.code_boc);
    // Only a jetton wallet's data is read here: most addresses of a trace are wallets, whose data no one reads.
    const data = names.some((n) => JETTON_WALLETS.has(n)) ? bocCell(r.data_boc) : null;
    if (data) {
      const wallet = jettonWalletData(data);
      if (wallet) info.jettonWallet = wallet;
    }
    if (names.includes('tv_pool')) info.nominatorPool = true;
    if (names.includes('whales_pool')) info.whalesPool = true;
    if (r.data_boc) info.dataBoc = Buffer.from(r.data_boc);
  }

  for (const w of wallets) at(w.address).jettonWallet = { owner: w.owner, jetton: w.jetton, balance: BigInt(w.balance) };

  const addItems = (list: ItemRow[]) => {
    for (const i of list) {
      at(i.address).nftItem = { collection: i.collection_address, index: BigInt(i.index), owner: i.owner_address, init: i.init, uri: i.uri, dns: i.dns || i.collection_address === DNS_COLLECTION };
    }
  };
  addItems(items);

  for (const s of sales) {
    const trade = saleInterfaces(s);
    if (trade) Object.assign(at(s.address), trade);
  }

  // The items sales and auctions sell, though the trace never touches them (a bid names the auction's item).
  const sold = [...new Set(sales.map((s) => s.nft_address).filter((a): a is string => !!a && !out.get(a)?.nftItem))];
  if (sold.length > 0) addItems((await interfaceRows(tx, sold, ['items'])).items);

  for (const o of orders) at(o.address).multisigOrder = { multisig: o.multisig_address, signers: o.signers ?? [] };
  return out;
}

interface ItemRow {
  address: string;
  init: boolean;
  index: string;
  collection_address: string | null;
  owner_address: string | null;
  uri: string | null;
  dns: boolean;
}
interface InterfaceRows {
  rows: { account: string; code_hash: Uint8Array | null; code_boc: Uint8Array | null; data_boc: Uint8Array | null }[];
  wallets: { address: string; owner: string; jetton: string; balance: string }[];
  items: ItemRow[];
  sales: ({ address: string } & SaleRow)[];
  orders: { address: string; multisig_address: string; signers: string[] | null }[];
}
type InterfaceTable = Exclude<keyof InterfaceRows, 'rows'> | 'latest';

// Each table's rows for the addresses as one JSON array: all of them in one statement (one round trip,
// where a query per table was a fifth of a block's write transaction on a loaded machine). Amounts as
// text (a driver's numeric and Prisma's Decimal alike), bytea as hex.
const INTERFACE_SELECTS: Record<InterfaceTable, string> = {
  latest: `SELECT account, encode(code_hash, 'hex') AS code_hash, encode(code_boc, 'hex') AS code_boc, encode(data_boc, 'hex') AS data_boc
    FROM latest_account_states WHERE account IN (SELECT x FROM a)`,
  wallets: `SELECT address, owner, jetton, balance::text AS balance FROM jetton_wallets WHERE address IN (SELECT x FROM a)`,
  items: `SELECT i.address, i.init, i.index::text AS index, i.collection_address, i.owner_address, i.content->>'uri' AS uri,
      EXISTS (SELECT 1 FROM dns_entries d WHERE d.nft_item_address = i.address) AS dns
    FROM nft_items i WHERE i.address IN (SELECT x FROM a)`,
  sales: `SELECT address, type, nft_address, nft_owner_address, marketplace_address, details FROM nft_sales WHERE address IN (SELECT x FROM a)`,
  orders: `SELECT address, multisig_address, signers FROM multisig_orders WHERE address IN (SELECT x FROM a)`,
};

async function interfaceRows(tx: Tx, addresses: string[], tables: InterfaceTable[] = ['latest', 'wallets', 'items', 'sales', 'orders']): Promise<InterfaceRows> {
  const columns = tables.map((t) => `(SELECT coalesce(json_agg(q), '[]'::json) FROM (${INTERFACE_SELECTS[t]}) AS q) AS "${t}"`).join(', ');
  const [r] = await run<Record<InterfaceTable, unknown[]>>(tx, Prisma.sql`
    WITH a AS MATERIALIZED (SELECT x FROM json_array_elements_text(${JSON.stringify(addresses)}::json) AS x) SELECT ${Prisma.raw(columns)}`);
  const list = <T>(t: InterfaceTable) => (r?.[t] ?? []) as T[];
  const bytes = (v: string | null) => (v === null ? null : Buffer.from(v, 'hex'));
  type Latest = { account: string; code_hash: string | null; code_boc: string | null; data_boc: string | null };
  return {
    rows: list<Latest>('latest').map((l) => ({ account: l.account, code_hash: bytes(l.code_hash), code_boc: bytes(l.code_boc), data_boc: bytes(l.data_boc) })),
    wallets: list('wallets'),
    items: list('items'),
    sales: list('sales'),
    orders: list('orders'),
  };
}

/** An amount of a sale's details (a decimal string, or a number for the small factors), null when absent. */

// Interfaces by code hash: a code's interfaces never change and codes are few, while parsing a code's
// method dictionary on every completed trace costs more than the rest of its classification.
const byCode = new Map<string, string[]>();
const BY_CODE_MAX = 10_000;

function interfacesOfCode(codeHash: Uint8Array | null, codeBoc: Uint8Array | null): string[] {
  if (!codeHash) return [];
  const key = b64(codeHash);
  let names = byCode.get(key);
  if (!names) {
    const code = bocCell(codeBoc);
    names = detectInterfaces(key, code ? contractMethods(code) : null);
    if (byCode.size >= BY_CODE_MAX) byCode.clear();
    if (code) byCode.set(key, names);
  }
  return names;
}

/**
 * TEP-74 wallet data: balance, owner, master, then the wallet code as a ref. Governed (stablecoin)
 * wallets keep no code in their data and a status first: status:uint4 balance owner master, no ref.
 * Null when the data is neither.
 */
function jettonWalletData(data: Cell): AccountInterfaces['jettonWallet'] | null {
  try {
    const s = data.beginParse();
    if (s.remainingRefs === 0) s.skip(4);
    const balance = s.loadCoins();
    const owner = s.loadAddress();
    const jetton = s.loadAddress();
    return { owner: rawUpper(owner), jetton: rawUpper(jetton), balance };
  } catch {
    return null;
  }
}
