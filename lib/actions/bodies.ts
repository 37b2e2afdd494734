// Message bodies Atlas knows: every opcode with its constructor name and field layout, in one table. The
// classifier (protocols/*) takes its opcodes and reads its token bodies here (readBody), GET/POST
// /api/v3/decode answers with it and the message mappers fill `decoded_opcode` and `decoded` from it.
//
// Names are the ones toncenter's decoder answers (its TL-B schema set, named like tonkeeper's ABI:
// `jetton_transfer`, `jetton_notify`, `excess`, `nft_ownership_assigned`, …); fields keep the TL-B
// field names in layout order. Values in JSON: 64-bit and wider integers and Coins as decimal strings,
// small integers as numbers, bits256 as 64 hex digits, addresses raw (`wc:HEX`, null for none), cells
// decoded in turn when they are bodies Atlas knows, else their base64 BoC.
import { Cell, type Slice } from '@ton/core';
import { STABLECOIN_OP } from '../ton/owner-ops';
import { snakeBytes } from '../ton/snake';
import { bocBase64, COMMENT_OP, ENCRYPTED_COMMENT_OP, loadAddr } from './cells';

type Kind =
  | 'uint8'
  | 'uint16'
  | 'uint64'
  | 'uint256'
  | 'bits256'
  | 'coins'
  | 'bool'
  | 'addr'
  | 'ref' // ^Cell
  | 'maybe_ref' // Maybe ^Cell
  | 'either' // Either Cell ^Cell
  | 'maybe_ref_addr' // Maybe ^MsgAddress
  | 'maybe_dns_record' // Maybe ^DNSRecord
  | 'text'; // snake UTF-8 to the end of the body

interface Schema {
  name: string;
  /** The tag: a 32-bit opcode, or the 16-bit tag of a DNS record. */
  op: number;
  fields: readonly (readonly [string, Kind])[];
}

const Q = ['query_id', 'uint64'] as const;

/** Message bodies by opcode (TEP-74 jettons, TEP-62/85 NFTs and SBTs, TEP-81 DNS, TEP-89 discovery, TEP-161 pTON, comments). */
export const BODY_SCHEMAS = [
  { name: 'text_comment', op: COMMENT_OP, fields: [['text', 'text']] },
  // The ciphertext is not decoded: the name flags it, the bytes stay as they are.
  { name: 'encrypted_text_comment', op: ENCRYPTED_COMMENT_OP, fields: [['cipher_text', 'text']] },
  // TEP-74
  {
    name: 'jetton_transfer',
    op: 0x0f8a7ea5,
    fields: [Q, ['amount', 'coins'], ['destination', 'addr'], ['response_destination', 'addr'], ['custom_payload', 'maybe_ref'], ['forward_ton_amount', 'coins'], ['forward_payload', 'either']],
  },
  {
    name: 'jetton_internal_transfer',
    op: 0x178d4519,
    fields: [Q, ['amount', 'coins'], ['from', 'addr'], ['response_address', 'addr'], ['forward_ton_amount', 'coins'], ['forward_payload', 'either']],
  },
  { name: 'jetton_notify', op: 0x7362d09c, fields: [Q, ['amount', 'coins'], ['sender', 'addr'], ['forward_payload', 'either']] },
  { name: 'excess', op: 0xd53276db, fields: [Q] },
  { name: 'jetton_burn', op: 0x595f07bc, fields: [Q, ['amount', 'coins'], ['response_destination', 'addr'], ['custom_payload', 'maybe_ref']] },
  { name: 'jetton_burn_notification', op: 0x7bdd97de, fields: [Q, ['amount', 'coins'], ['sender', 'addr'], ['response_destination', 'addr']] },
  // The standard minter's (ton-blockchain/jetton-contract, stablecoins): master_msg is the internal_transfer.
  { name: 'jetton_mint', op: STABLECOIN_OP.mint, fields: [Q, ['to_address', 'addr'], ['ton_amount', 'coins'], ['master_msg', 'ref']] },
  // TEP-89
  { name: 'provide_wallet_address', op: 0x2c76b973, fields: [Q, ['owner_address', 'addr'], ['include_address', 'bool']] },
  { name: 'take_wallet_address', op: 0xd1735400, fields: [Q, ['wallet_address', 'addr'], ['owner_address', 'maybe_ref_addr']] },
  // TEP-62, TEP-66
  {
    name: 'nft_transfer',
    op: 0x5fcc3d14,
    fields: [Q, ['new_owner', 'addr'], ['response_destination', 'addr'], ['custom_payload', 'maybe_ref'], ['forward_amount', 'coins'], ['forward_payload', 'either']],
  },
  { name: 'nft_ownership_assigned', op: 0x05138d91, fields: [Q, ['prev_owner', 'addr'], ['forward_payload', 'either']] },
  { name: 'get_static_data', op: 0x2fcb26a2, fields: [Q] },
  { name: 'report_static_data', op: 0x8b771735, fields: [Q, ['index', 'uint256'], ['collection', 'addr']] },
  { name: 'get_royalty_params', op: 0x693d3950, fields: [Q] },
  { name: 'report_royalty_params', op: 0xa8cb00ad, fields: [Q, ['numerator', 'uint16'], ['denominator', 'uint16'], ['destination', 'addr']] },
  // TEP-85 SBT
  { name: 'prove_ownership', op: 0x04ded148, fields: [Q, ['dest', 'addr'], ['forward_payload', 'ref'], ['with_content', 'bool']] },
  {
    name: 'ownership_proof',
    op: 0x0524c7ae,
    fields: [Q, ['item_id', 'uint256'], ['owner', 'addr'], ['data', 'ref'], ['revoked_at', 'uint64'], ['content', 'maybe_ref']],
  },
  { name: 'sbt_request_owner', op: 0xd0c3bfea, fields: [Q, ['dest', 'addr'], ['forward_payload', 'ref'], ['with_content', 'bool']] },
  {
    name: 'sbt_owner_info',
    op: 0x0dd607e3,
    fields: [Q, ['item_id', 'uint256'], ['initiator', 'addr'], ['owner', 'addr'], ['data', 'ref'], ['revoked_at', 'uint64'], ['content', 'maybe_ref']],
  },
  { name: 'sbt_destroy', op: 0x1f04537a, fields: [Q] },
  { name: 'sbt_revoke', op: 0x6f89f5e3, fields: [Q] },
  // TEP-161 proxy TON (pTON wallets of DEX routers)
  { name: 'pton_ton_transfer', op: 0x01f3835d, fields: [Q, ['ton_amount', 'coins'], ['refund_address', 'addr'], ['forward_payload', 'either']] },
  // TEP-81
  { name: 'change_dns_record', op: 0x4eb1f0f9, fields: [Q, ['key', 'bits256'], ['value', 'maybe_dns_record']] },
] as const satisfies readonly Schema[];

/** TEP-81 DNSRecord values (16-bit tags). */
const DNS_RECORD_SCHEMAS: readonly Schema[] = [
  { name: 'dns_smc_address', op: 0x9fd3, fields: [['smc_addr', 'addr'], ['flags', 'uint8']] },
  { name: 'dns_adnl_address', op: 0xad01, fields: [['adnl_addr', 'bits256'], ['flags', 'uint8']] },
  { name: 'dns_storage_address', op: 0x7473, fields: [['bag_id', 'bits256']] },
  { name: 'dns_next_resolver', op: 0xba93, fields: [['resolver', 'addr']] },
  { name: 'dns_text', op: 0x1eda, fields: [['text', 'text']] },
];

type BodyName = (typeof BODY_SCHEMAS)[number]['name'];

/** Opcodes by constructor name, for the modules that match on them. */
export const OPS = Object.fromEntries(BODY_SCHEMAS.map((s) => [s.name, s.op])) as { readonly [K in BodyName]: number };

// Stored opcodes are signed int32 (`| 0`); the table is keyed the same way.
const BY_OP = new Map<number, Schema>(BODY_SCHEMAS.map((s) => [s.op | 0, s]));
const DNS_BY_TAG = new Map<number, Schema>(DNS_RECORD_SCHEMAS.map((s) => [s.op, s]));

/** The constructor name of an opcode (signed or unsigned 32-bit), or null when Atlas has no schema for it. */
export function opcodeName(op: number | null): string | null {
  if (op === null) return null;
  return BY_OP.get(op | 0)?.name ?? null;
}

export type Decoded = { '@type': string } & Record<string, unknown>;

/** Why a body did not decode; `message` is meant for the client. */
export class BodyNotDecoded extends Error {}

/**
 * A field as read: small integers as numbers; 64-bit and wider integers and Coins as bigint; bits256
 * as hex; addresses raw (null for none); cells as Cell; DNS records as their cell; texts as strings.
 * A field the body ends before is null: contracts accept bodies cut after the last field they read (an
 * internal_transfer without its forward amount, a burn_notification without its response address).
 */
export type RawField = number | bigint | boolean | string | Cell | null;
export type RawBody = Record<string, RawField>;

/** Bytes of one text field; snake strings longer than this are cut (a body has at most ~4 MB of cells). */
const MAX_TEXT_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function readText(s: Slice, schema: Schema): string {
  const bytes = snakeBytes(s, MAX_TEXT_BYTES);
  let end = Math.min(bytes.length, MAX_TEXT_BYTES);
  // Ciphertexts are bytes, never text.
  if (schema.name === 'encrypted_text_comment') return bytes.subarray(0, end).toString('hex');
  // A cut text ends before the character it would split (UTF-8 continuation bytes are 10xxxxxx).
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return utf8.decode(bytes.subarray(0, end));
}

function readRaw(s: Slice, kind: Kind, schema: Schema): RawField {
  // The body ends before this field (its bits, or for ^Cell its refs, are used up).
  if (kind === 'ref' ? s.remainingRefs === 0 : kind !== 'text' && s.remainingBits === 0) return null;
  switch (kind) {
    case 'uint8':
      return s.loadUint(8);
    case 'uint16':
      return s.loadUint(16);
    case 'uint64':
      return s.loadUintBig(64);
    case 'uint256':
      return s.loadUintBig(256);
    case 'bits256':
      return s.loadBuffer(32).toString('hex');
    case 'coins':
      return s.loadCoins();
    case 'bool':
      return s.loadBit();
    case 'addr':
      return loadAddr(s);
    case 'ref':
      return s.loadRef();
    case 'maybe_ref':
    case 'maybe_dns_record':
      return s.loadBit() ? s.loadRef() : null;
    case 'either': {
      if (s.loadBit()) return s.loadRef();
      // Inline: the payload is the rest of the body.
      const rest = s.asCell();
      s.skip(s.remainingBits);
      while (s.remainingRefs > 0) s.loadRef();
      return rest;
    }
    case 'maybe_ref_addr':
      return s.loadBit() ? loadAddr(s.loadRef().beginParse()) : null;
    case 'text':
      return readText(s, schema);
  }
}

function readWith(s: Slice, table: ReadonlyMap<number, Schema>, tagBits: number): { schema: Schema; fields: RawBody } {
  if (s.remainingBits < tagBits) throw new BodyNotDecoded(`unknown body: shorter than a ${tagBits}-bit opcode`);
  const tag = s.loadUint(tagBits);
  const schema = table.get(tagBits === 32 ? tag | 0 : tag);
  if (!schema) throw new BodyNotDecoded(`unknown opcode 0x${tag.toString(16).padStart(tagBits / 4, '0')}`);
  const fields: RawBody = {};
  try {
    for (const [name, kind] of schema.fields) fields[name] = readRaw(s, kind, schema);
  } catch (e) {
    throw new BodyNotDecoded(`invalid ${schema.name} body: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { schema, fields };
}

/**
 * The fields of a body the caller expects to be `name` (the slice at its opcode), as read: what the
 * classifier matches on. Throws BodyNotDecoded for another opcode or a body that does not fit.
 */
export function readBody(s: Slice, name: BodyName): RawBody {
  const { schema, fields } = readWith(s, BY_OP, 32);
  if (schema.name !== name) throw new BodyNotDecoded(`expected ${name}, found ${schema.name}`);
  return fields;
}

/** A TEP-81 DNSRecord cell (change_dns_record's value): its constructor name and fields as read. Throws BodyNotDecoded. */
export function readDnsRecord(cell: Cell): { name: string; fields: RawBody } {
  const { schema, fields } = readWith(cell.beginParse(), DNS_BY_TAG, 16);
  return { name: schema.name, fields };
}

// ---------------------------------------------------------------------------------------------------
// JSON, as toncenter's decoder prints bodies

/**
 * Nesting of decoded cells inside a body (a forward payload holding a body holding a payload…). The
 * decoder only follows the refs a layout names, so the work per body is bounded by this times the
 * longest layout, whatever the cell graph (deep, wide or a DAG with shared cells).
 */
const MAX_NESTING = 8;

function jsonField(v: RawField, kind: Kind, depth: number): unknown {
  if (v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (kind === 'maybe_dns_record') return decodeWith((v as Cell).beginParse(), DNS_BY_TAG, 16, depth + 1);
  if (v instanceof Cell) return nested(v, depth);
  return v;
}

/** A cell inside a body: decoded when Atlas knows it, `{"@type":"empty_cell"}` when empty, else its BoC. */
function nested(cell: Cell, depth: number): unknown {
  if (cell.bits.length === 0 && cell.refs.length === 0) return { '@type': 'empty_cell' };
  if (depth + 1 < MAX_NESTING) {
    try {
      return decodeWith(cell.beginParse(), BY_OP, 32, depth + 1);
    } catch {
      // not a body Atlas knows: its BoC below
    }
  }
  return bocBase64(cell);
}

function decodeWith(s: Slice, table: ReadonlyMap<number, Schema>, tagBits: number, depth: number): Decoded {
  const { schema, fields } = readWith(s, table, tagBits);
  const out: Decoded = { '@type': schema.name };
  try {
    for (const [name, kind] of schema.fields) out[name] = jsonField(fields[name] ?? null, kind, depth);
  } catch (e) {
    if (e instanceof BodyNotDecoded) throw new BodyNotDecoded(`invalid ${schema.name} body: ${e.message}`);
    throw e;
  }
  return out;
}

/**
 * A body as its constructor and fields; an empty cell is `{"@type":"empty_cell"}`. Throws BodyNotDecoded
 * for an unknown opcode or a body that does not fit its layout.
 */
export function decodeBodyCell(cell: Cell): Decoded {
  if (cell.bits.length === 0 && cell.refs.length === 0) return { '@type': 'empty_cell' };
  return decodeWith(cell.beginParse(), BY_OP, 32, 0);
}
