// Rows → toncenter JSON, every object built in the models' key order (jsonb columns come back with
// PostgreSQL's own key order, so nothing stored is passed through as is).
import type { AccountState, Block, Message } from '../../db/generated/client';
import { opcodeHex } from '../../ton/opcode-hex';
import { amountMap, b64, dec, hex, optB64, optDec, optStr, shardHex } from './encode';
import type { BlockIdJson, BlockJson } from './models/blocks';
import type { MessageContentJson, MessageJson } from './models/messages';
import type { AccountStateJson, TransactionDescrJson } from './models/transactions';
import { decodeBodyCell, opcodeName } from '../../actions/bodies';
import { deserializeBoc } from '../../ton/boc';
import { blockHeaderColumns } from '../../chain/records';

export const MASTERCHAIN_SHARD = -(2n ** 63n);
const MASTERCHAIN_SHARD_HEX = shardHex(MASTERCHAIN_SHARD);

// ---------------------------------------------------------------------------------------------------
// Blocks

interface StoredPrevBlock {
  workchain: number;
  shard: string;
  seqno: number;
}

/**
 * validator_list_hash_short is a uint32; toncenter stores it in a signed `integer` column and prints the
 * signed value (e.g. -2039098909), so Atlas prints the same signed int32.
 */
export function mapBlock(b: Block): BlockJson {
  const prev = (b.prevBlocks as unknown as StoredPrevBlock[]) ?? [];
  return {
    workchain: b.workchain,
    shard: shardHex(b.shard),
    seqno: b.seqno,
    root_hash: b64(b.rootHash),
    file_hash: b64(b.fileHash),
    ...blockHeaderColumns(b),
    gen_utime: String(b.genUtime),
    start_lt: String(b.startLt),
    end_lt: String(b.endLt),
    validator_list_hash_short: Number(BigInt.asIntN(32, b.validatorListHashShort)),
    gen_catchain_seqno: b.genCatchainSeqno,
    min_ref_mc_seqno: b.minRefMcSeqno,
    prev_key_block_seqno: b.prevKeyBlockSeqno,
    vert_seqno: b.vertSeqno,
    master_ref_seqno: b.masterRefSeqno,
    rand_seed: b64(b.randSeed),
    created_by: b64(b.createdBy),
    tx_count: b.txCount,
    masterchain_block_ref: b.mcBlockSeqno === null ? null : { workchain: -1, shard: MASTERCHAIN_SHARD_HEX, seqno: b.mcBlockSeqno },
    prev_blocks: prev.map((p): BlockIdJson => ({ workchain: p.workchain, shard: shardHex(BigInt(p.shard)), seqno: p.seqno })),
  };
}

export const blockId = (workchain: number, shard: bigint, seqno: number): BlockIdJson => ({ workchain, shard: shardHex(shard), seqno });

// ---------------------------------------------------------------------------------------------------
// Messages

/** Bodies and init states by cell hash (hex): their BoCs in base64, as the answers carry them. */
export type Contents = ReadonlyMap<string, string>;

/**
 * A message body as toncenter's `decoded` (lib/actions/bodies.ts), null when Atlas has no schema for it
 * or it does not fit its layout. Text comments keep toncenter's back-compatible shape (a Go map: sorted
 * keys, `comment` instead of `text`); other bodies keep the decoder's own key order.
 */
export function decodeBody(opcode: number | null, boc: Uint8Array): Record<string, unknown> | null {
  // Only a known opcode is worth parsing the BoC for.
  if (opcodeName(opcode) === null) return null;
  try {
    const d = decodeBodyCell(deserializeBoc(Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength))[0]!);
    if (d['@type'] === 'text_comment') return { '@type': 'text_comment', comment: d.text, type: 'text_comment' };
    return d;
  } catch {
    return null;
  }
}

// Decoded bodies by body hash (hex): a body's decoding depends on its cells alone, and the same pages are
// asked for again and again (wallets poll their account's traces, explorers refresh). Bounded: the oldest
// entries go first. The objects are shared between answers, which only serialize them.
const decodedCache = new Map<string, Record<string, unknown> | null>();
const DECODED_CACHE_MAX = 20_000;

function decodedBody(hashHex: string, opcode: number | null, bocBase64: string): Record<string, unknown> | null {
  if (opcodeName(opcode) === null) return null; // never decoded: not worth an entry
  const hit = decodedCache.get(hashHex); // a body that did not decode is kept as null
  if (hit !== undefined) return hit;
  const d = decodeBody(opcode, Buffer.from(bocBase64, 'base64'));
  if (decodedCache.size >= DECODED_CACHE_MAX) decodedCache.delete(decodedCache.keys().next().value!);
  decodedCache.set(hashHex, d);
  return d;
}

/** toncenter's decoded_opcode: the constructor name of the opcode in the decoder's schemas, or null. */
export const decodeOpcode = (opcode: number | null): string | null => opcodeName(opcode);

function content(hashBytes: Uint8Array | null, contents: Contents, opcode: number | null, decode: boolean): MessageContentJson | null {
  if (!hashBytes) return null;
  const key = hex(hashBytes);
  const boc = contents.get(key);
  if (!boc) return null;
  return { hash: b64(hashBytes), body: boc, decoded: decode ? decodedBody(key, opcode, boc) : null };
}

export interface MessageRowLike
  extends Pick<
    Message,
    | 'msgHash'
    | 'source'
    | 'destination'
    | 'value'
    | 'valueExtraCurrencies'
    | 'fwdFee'
    | 'ihrFee'
    | 'extraFlags'
    | 'createdLt'
    | 'createdAt'
    | 'opcode'
    | 'ihrDisabled'
    | 'bounce'
    | 'bounced'
    | 'importFee'
    | 'bodyHash'
    | 'initStateHash'
    | 'msgHashNorm'
  > {
  inTxHash?: Uint8Array | null;
  outTxHash?: Uint8Array | null;
}

export function mapMessage(m: MessageRowLike, contents: Contents): MessageJson {
  return {
    hash: b64(m.msgHash),
    source: m.source,
    destination: m.destination,
    value: optDec(m.value),
    value_extra_currencies: amountMap(m.valueExtraCurrencies),
    fwd_fee: optDec(m.fwdFee),
    ihr_fee: optDec(m.ihrFee),
    extra_flags: optDec(m.extraFlags),
    created_lt: optStr(m.createdLt),
    created_at: optStr(m.createdAt),
    opcode: m.opcode === null ? null : opcodeHex(m.opcode),
    decoded_opcode: decodeOpcode(m.opcode),
    ihr_disabled: m.ihrDisabled,
    bounce: m.bounce,
    bounced: m.bounced,
    import_fee: optDec(m.importFee),
    ...(m.inTxHash ? { in_msg_tx_hash: b64(m.inTxHash) } : {}),
    ...(m.outTxHash ? { out_msg_tx_hash: b64(m.outTxHash) } : {}),
    message_content: content(m.bodyHash, contents, m.opcode, true),
    init_state: content(m.initStateHash, contents, null, false),
    ...(m.msgHashNorm ? { hash_norm: b64(m.msgHashNorm) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// Account states inside transactions

export function mapAccountState(hash: Uint8Array, row: AccountState | undefined): AccountStateJson {
  return {
    hash: b64(hash),
    balance: row ? dec(row.balance) : null,
    extra_currencies: row ? amountMap(row.balanceExtraCurrencies) : null,
    account_status: row?.accountStatus ?? null,
    frozen_hash: optB64(row?.frozenHash),
    data_hash: optB64(row?.dataHash),
    code_hash: optB64(row?.codeHash),
  };
}

// ---------------------------------------------------------------------------------------------------
// Transaction descriptions

type Json = Record<string, unknown>;

/** Copies the keys present (non-null) in toncenter's order; nested maps and sizes rebuilt too. */
function pick(src: unknown, keys: readonly string[]): Json | undefined {
  if (src === null || src === undefined || typeof src !== 'object') return undefined;
  const s = src as Json;
  const out: Json = {};
  for (const k of keys) {
    const v = s[k];
    if (v === null || v === undefined) continue;
    if (k === 'tot_msg_size' || k === 'msg_size') out[k] = pick(v, ['cells', 'bits']);
    else if (k === 'credit_extra_currencies') out[k] = amountMap(v);
    else out[k] = v;
  }
  return out;
}

const DESCR_FLAGS = ['aborted', 'destroyed', 'credit_first', 'is_tock', 'installed'] as const;
const PHASES: readonly [string, readonly string[]][] = [
  ['storage_ph', ['storage_fees_collected', 'storage_fees_due', 'status_change']],
  ['credit_ph', ['due_fees_collected', 'credit', 'credit_extra_currencies']],
  [
    'compute_ph',
    [
      'skipped',
      'reason',
      'success',
      'msg_state_used',
      'account_activated',
      'gas_fees',
      'gas_used',
      'gas_limit',
      'gas_credit',
      'mode',
      'exit_code',
      'exit_arg',
      'vm_steps',
      'vm_init_state_hash',
      'vm_final_state_hash',
    ],
  ],
  [
    'action',
    [
      'success',
      'valid',
      'no_funds',
      'status_change',
      'total_fwd_fees',
      'total_action_fees',
      'result_code',
      'result_arg',
      'tot_actions',
      'spec_actions',
      'skipped_actions',
      'msgs_created',
      'action_list_hash',
      'tot_msg_size',
    ],
  ],
  ['bounce', ['type', 'msg_size', 'req_fwd_fees', 'msg_fees', 'fwd_fees']],
  ['split_info', ['cur_shard_pfx_len', 'acc_split_depth', 'this_addr', 'sibling_addr']],
];

/**
 * The stored description (already toncenter's TransactionDescr, lib/chain/records.ts) in toncenter's
 * key order. toncenter also swaps compute_ph gas_fees and gas_used when gas_fees < gas_used — a repair of
 * its own old inserts; Atlas stores them right, so it does not (a free-gas transaction would be broken).
 */
export function orderDescription(stored: unknown): TransactionDescrJson {
  const d = (stored ?? {}) as Json;
  const out: Json = { type: d.type };
  for (const k of DESCR_FLAGS) if (d[k] !== null && d[k] !== undefined) out[k] = d[k];
  for (const [phase, keys] of PHASES) {
    const v = pick(d[phase], keys);
    if (v) out[phase] = v;
  }
  return out as TransactionDescrJson;
}
