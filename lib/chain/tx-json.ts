// Transactions and messages in v2's tonlib shapes (api-v2.md §1.8, §3.1): raw.transaction / raw.message
// with accountAddress objects, and the ext.* variants (getTransactions, tryLocate*) with plain address
// strings, the account as wc:HEX and the decoded `message`.
import { Address, beginCell, Cell, Dictionary, type ExternalAddress, loadCommonMessageInfo, loadMessage, loadTransaction, storeStateInit, type Message, type Transaction } from '@ton/core';
import { rawUpper } from '../ton/address';
import { accountAddressJson } from './account-state';
import { snakeBytes } from '../ton/snake';
import { TtlLru } from '../lite/cache';

export type Flavour = 'raw' | 'ext';

/** tonlib prints account addresses bounceable, url-safe; external and missing addresses as "". */
export function accountString(a: Address | ExternalAddress | null | undefined): string {
  return a instanceof Address ? a.toString({ bounceable: true, urlSafe: true, testOnly: false }) : '';
}

const accountAddress = (a: Address | ExternalAddress | null | undefined) =>
  a instanceof Address ? accountAddressJson(a) : { '@type': 'accountAddress', account_address: '' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

type MsgData =
  | { '@type': 'msg.dataRaw'; body: string; init_state: string }
  | { '@type': 'msg.dataText'; text: string }
  | { '@type': 'msg.dataEncryptedText'; text: string };

/**
 * tonlib's reading of a body: op 0 + snake string → text, op 1 + snake string → encrypted text,
 * anything else → the raw body and init state.
 */
function msgData(body: Cell, init: Cell | null): MsgData {
  const s = body.beginParse();
  if (s.remainingBits >= 32) {
    const op = s.loadUint(32);
    if (op === 0 || op === 1) {
      try {
        const text = snakeBytes(s).toString('base64');
        return { '@type': op === 0 ? 'msg.dataText' : 'msg.dataEncryptedText', text };
      } catch {
        // not a snake string: raw body below
      }
    }
  }
  return { '@type': 'msg.dataRaw', body: body.toBoc().toString('base64'), init_state: init ? init.toBoc().toString('base64') : '' };
}

/** The root cell's data bits as bytes, unused trailing bits zero. */
function dataBytes(cell: Cell): Buffer {
  const out = Buffer.alloc(Math.ceil(cell.bits.length / 8));
  for (let i = 0; i < cell.bits.length; i++) if (cell.bits.at(i)) out[i >> 3]! |= 0x80 >> (i & 7);
  return out;
}

/** ext.message `message`: base64 of a raw body's root data bits + "\n", or the comment as text. */
function decodedMessage(data: MsgData, body: Cell): { message: string } | { message_decode_error: string } {
  if (data['@type'] === 'msg.dataText') {
    try {
      return { message: utf8.decode(Buffer.from(data.text, 'base64')) };
    } catch {
      return { message_decode_error: 'the comment is not valid UTF-8' };
    }
  }
  if (data['@type'] === 'msg.dataEncryptedText') return { message: data.text };
  const bytes = dataBytes(body);
  return { message: bytes.length ? `${bytes.toString('base64')}\n` : '' };
}

/** The StateInit cell as the message carries it: its ref when stored by reference, else the inline bits as a cell. */
function initCell(messageCell: Cell, msg: Message): Cell | null {
  if (!msg.init) return null;
  const s = messageCell.beginParse();
  loadCommonMessageInfo(s);
  s.loadBit(); // Maybe: set, since there is an init
  return s.loadBit() ? s.loadRef() : beginCell().store(storeStateInit(msg.init)).endCell();
}

export function messageJson(cell: Cell, flavour: Flavour) {
  const msg = loadMessage(cell.beginParse());
  const info = msg.info;
  const init = initCell(cell, msg);
  const data = msgData(msg.body, init);
  const addr = flavour === 'raw' ? accountAddress : accountString;
  const internal = info.type === 'internal' ? info : null;
  const base = {
    '@type': flavour === 'raw' ? 'raw.message' : 'ext.message',
    hash: cell.hash().toString('base64'),
    source: addr(info.src),
    destination: addr(info.dest),
    value: (internal?.value.coins ?? 0n).toString(),
    extra_currencies: [...(internal?.value.other ?? new Map<number, bigint>())].map(([id, amount]) => ({
      '@type': 'extraCurrency',
      id,
      amount: amount.toString(),
    })),
    fwd_fee: (internal?.forwardFee ?? 0n).toString(),
    ihr_fee: (internal?.ihrFee ?? 0n).toString(),
    created_lt: (info.type === 'external-in' ? 0n : info.createdLt).toString(),
    body_hash: msg.body.hash().toString('base64'),
    msg_data: data,
  };
  return flavour === 'raw' ? base : { ...base, ...decodedMessage(data, msg.body) };
}

/** The message cells of a transaction as stored: in_msg and out_msgs in index order. */
export function transactionMessages(tx: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  const io = tx.refs[0]!.beginParse();
  const inMsg = io.loadBit() ? io.loadRef() : null;
  const dict = io.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outMsgs = [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
  return { inMsg, outMsgs };
}

/**
 * raw.transaction (flavour raw) or ext.transaction (flavour ext). `account` adds the wc:HEX account
 * (ext.transaction always has it; raw.transactionExt passes it).
 */
export function transactionJson(cell: Cell, workchain: number, flavour: Flavour, type?: string) {
  const key = `${cell.hash().toString('hex')}:${workchain}:${flavour}:${type ?? ''}`;
  let json = built.get(key);
  if (!json) {
    json = buildTransactionJson(cell, workchain, flavour, type);
    built.set(key, json);
  }
  return json;
}

// A transaction never changes (its hash names it), so its JSON is built once and handed to every
// answer that shows it: ~0.3-1 ms each to build (parsing, messages, BoC), and clients poll the same
// histories over and over. Shared objects: callers serialize them and never modify them.
const built = new TtlLru<string, ReturnType<typeof buildTransactionJson>>({
  ttlMs: 60_000,
  maxEntries: 5000,
  maxBytes: 32 << 20,
  sizeOf: (j) => 512 + j.data.length * 3, // the BoC dominates; messages repeat parts of it
});

// Parsed transactions by cell: the same Cell objects come back from the page memo (methods/transactions.ts).
const parsed = new WeakMap<Cell, Transaction>();

/** loadTransaction, once per cell object. */
export function parsedTransaction(cell: Cell): Transaction {
  let tx = parsed.get(cell);
  if (!tx) {
    tx = loadTransaction(cell.beginParse());
    parsed.set(cell, tx);
  }
  return tx;
}

function buildTransactionJson(cell: Cell, workchain: number, flavour: Flavour, type?: string) {
  const tx = parsedTransaction(cell);
  const address = new Address(workchain, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
  const d = tx.description;
  const storageFee = 'storagePhase' in d && d.storagePhase ? d.storagePhase.storageFeesCollected : 0n;
  const fee = tx.totalFees.coins;
  const { inMsg, outMsgs } = transactionMessages(cell);
  return {
    '@type': type ?? (flavour === 'raw' ? 'raw.transaction' : 'ext.transaction'),
    address: accountAddress(address),
    ...(flavour === 'ext' || type ? { account: rawUpper(address) } : {}),
    utime: tx.now,
    data: cell.toBoc().toString('base64'),
    transaction_id: transactionId(tx.lt, cell.hash()),
    fee: fee.toString(),
    storage_fee: storageFee.toString(),
    other_fee: (fee - storageFee).toString(),
    ...(inMsg ? { in_msg: messageJson(inMsg, flavour) } : {}),
    out_msgs: outMsgs.map((m) => messageJson(m, flavour)),
  };
}

export const transactionId = (lt: bigint | string, hash: Buffer) => ({ '@type': 'internal.transactionId', lt: lt.toString(), hash: hash.toString('base64') });
