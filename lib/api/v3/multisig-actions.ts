// The actions of a multisig order as /multisig/orders answers them with parse_actions (api-v3.md §3.19
// OrderAction): each send_message (whatever its send mode) with its destination, value, raw body and
// the body read with the decoders Atlas already has (lib/actions/bodies.ts, comments from
// lib/actions/cells.ts) or, for what an owner or admin sends (lib/ton/owner-ops.ts), read here; an
// update_multisig_params as its new threshold, signers and proposers. A body of another kind is
// `unknown` with its opcode and BoC; an action of another kind is `unknown` with its raw BoC.
import { Address, Cell, loadMessageRelaxed, type Slice } from '@ton/core';
import { BodyNotDecoded, OPS, readBody, type RawBody } from '../../actions/bodies';
import { bocBase64, COMMENT_OP, ENCRYPTED_COMMENT_OP, loadAddr, readComment } from '../../actions/cells';
import { rawUpper } from '../../ton/address';
import { parseMultisigOrder, type ParsedMultisigAction } from '../../ton/multisig';
import { JETTON_TOP_UP_OP, SINGLE_NOMINATOR_OP, STABLECOIN_OP, VESTING_OP } from '../../ton/owner-ops';
import { opcodeHex } from '../../ton/opcode-hex';
import { snakeBytes } from '../../ton/snake';
import type { MultisigOrderActionJson } from './models/multisig';

type Body = Record<string, unknown>;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const cellBoc = (v: unknown): string | null => (v instanceof Cell ? bocBase64(v) : null);

function forwardPayload(payload: unknown): { comment: string | null; encrypted_comment: boolean; forward_payload: string | null; payload_sum_type: string | null } {
  if (!(payload instanceof Cell) || (payload.bits.length === 0 && payload.refs.length === 0)) {
    return { comment: null, encrypted_comment: false, forward_payload: null, payload_sum_type: null };
  }
  const c = readComment(payload.beginParse());
  const op = payload.bits.length >= 32 ? payload.beginParse().preloadUint(32) : null;
  const sumType = op === COMMENT_OP ? 'text_comment' : op === ENCRYPTED_COMMENT_OP ? 'encrypted_text_comment' : 'unknown';
  return { comment: c.comment, encrypted_comment: c.encrypted, forward_payload: bocBase64(payload), payload_sum_type: sumType };
}

/** [parsed_body_type, parsed_body] of a message body; throws BodyNotDecoded when a known body does not fit. */
function parseBody(body: Cell): [string, Body] {
  const s = body.beginParse();
  if (s.remainingBits < 32) {
    if (s.remainingBits === 0 && s.remainingRefs === 0) return ['ton_transfer', { comment: null, encrypted: false }];
    return ['unknown', { opcode: null, data: bocBase64(body) }];
  }
  const op = s.preloadUint(32);
  if (op === COMMENT_OP || op === ENCRYPTED_COMMENT_OP) {
    const c = readComment(body.beginParse());
    return ['ton_transfer', { comment: c.comment, encrypted: c.encrypted }];
  }
  const read = (name: Parameters<typeof readBody>[1]): RawBody => readBody(body.beginParse(), name);
  switch (op) {
    case OPS.jetton_transfer: {
      const f = read('jetton_transfer');
      return [
        'jetton_transfer',
        {
          query_id: num(f.query_id),
          amount: str(f.amount),
          destination: f.destination,
          response: f.response_destination,
          custom_payload: cellBoc(f.custom_payload),
          forward_amount: str(f.forward_ton_amount),
          ...forwardPayload(f.forward_payload),
          stonfi_swap_body: null,
        },
      ];
    }
    case OPS.jetton_burn: {
      const f = read('jetton_burn');
      return ['jetton_burn', { query_id: num(f.query_id), amount: str(f.amount), response_destination: f.response_destination }];
    }
    case OPS.jetton_mint: {
      const f = read('jetton_mint');
      let masterQueryId: number | null = null;
      let masterAmount: string | null = null;
      if (f.master_msg instanceof Cell) {
        try {
          const m = readBody(f.master_msg.beginParse(), 'jetton_internal_transfer');
          masterQueryId = num(m.query_id);
          masterAmount = str(m.amount);
        } catch {
          // a master message of another kind: its fields stay null
        }
      }
      return [
        'jetton_mint',
        { opcode: op, query_id: num(f.query_id), to_address: f.to_address, ton_amount: str(f.ton_amount), master_msg_query_id: masterQueryId, master_msg_jetton_amount: masterAmount },
      ];
    }
    case OPS.nft_transfer: {
      const f = read('nft_transfer');
      return [
        'nft_transfer',
        {
          query_id: num(f.query_id),
          new_owner: f.new_owner,
          response_destination: f.response_destination,
          custom_payload: cellBoc(f.custom_payload),
          forward_amount: str(f.forward_amount),
          forward_payload: cellBoc(f.forward_payload),
        },
      ];
    }
    default: {
      const owner = OWNER_BODIES.get(op);
      if (!owner) return ['unknown', { opcode: op, data: bocBase64(body) }];
      const rest = body.beginParse().skip(32);
      try {
        return [owner.name, owner.read(rest)];
      } catch {
        throw new BodyNotDecoded(`${owner.name}: the body ends early or does not fit its layout`);
      }
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const queryId = (s: Slice) => num(s.loadUintBig(64));

/** What call_to delivers, named as toncenter names it. */
function callToActionType(action: Cell): string {
  const s = action.beginParse();
  const op = s.remainingBits >= 32 ? s.loadUint(32) : null;
  if (op === STABLECOIN_OP.setStatus) return 'JettonSetStatus';
  if (op === OPS.jetton_transfer) return 'JettonTransfer';
  if (op === OPS.jetton_burn) return 'JettonBurn';
  return 'Unknown';
}

/** A vesting wallet's send: the message it is asked to send, and that message's comment. */
function vestingSend(s: Slice): Body {
  const q = queryId(s);
  const sendMode = s.loadUint(8);
  const message = loadMessageRelaxed(s.loadRef().beginParse());
  const internal = message.info.type === 'internal' ? message.info : null;
  return {
    query_id: q,
    send_mode: sendMode,
    destination: internal ? rawUpper(internal.dest) : null,
    value: internal ? internal.value.coins.toString() : null,
    message_body: bocBase64(message.body),
    comment: readComment(message.body.beginParse()).comment,
  };
}

/** Bodies an owner or admin sends (lib/ton/owner-ops.ts), by opcode: the name toncenter gives them and their fields after the opcode. */
const OWNER_BODIES = new Map<number, { name: string; read: (s: Slice) => Body }>([
  [JETTON_TOP_UP_OP, { name: 'jetton_top_up', read: (s) => ({ query_id: queryId(s) }) }],
  [STABLECOIN_OP.changeAdmin, { name: 'jetton_change_admin', read: (s) => ({ query_id: queryId(s), new_admin_address: loadAddr(s) }) }],
  [STABLECOIN_OP.claimAdmin, { name: 'jetton_claim_admin', read: (s) => ({ query_id: queryId(s) }) }],
  [STABLECOIN_OP.changeMetadataUri, { name: 'jetton_change_content', read: (s) => ({ query_id: queryId(s), new_metadata_url: utf8.decode(snakeBytes(s)) }) }],
  [
    STABLECOIN_OP.callTo,
    {
      name: 'jetton_call_to',
      read: (s) => {
        const q = queryId(s);
        const to = loadAddr(s);
        const tonAmount = s.loadCoins().toString();
        const action = s.loadRef();
        return { query_id: q, to_address: to, ton_amount: tonAmount, action_type: callToActionType(action), action_data: bocBase64(action) };
      },
    },
  ],
  // status:uint4, as stablecoin-contract's wallets keep it.
  [STABLECOIN_OP.setStatus, { name: 'jetton_set_status', read: (s) => ({ query_id: queryId(s), new_status: s.loadUint(4) }) }],
  [SINGLE_NOMINATOR_OP.withdraw, { name: 'single_nominator_withdraw', read: (s) => ({ query_id: queryId(s), coins: s.loadCoins().toString() }) }],
  [SINGLE_NOMINATOR_OP.changeValidator, { name: 'single_nominator_change_validator', read: (s) => ({ query_id: queryId(s), validator_address: loadAddr(s) }) }],
  [VESTING_OP.sendMessage, { name: 'vesting_internal_transfer', read: vestingSend }],
]);

const list = (addresses: Address[]) => addresses.map((a) => rawUpper(a));

function actionJson(a: ParsedMultisigAction): MultisigOrderActionJson {
  if (a.type === 'update') {
    return {
      destination: null,
      value: null,
      body_raw: null,
      parsed: true,
      error: null,
      parsed_body: { new_threshold: a.threshold, new_signers: list(a.signers), new_proposers: list(a.proposers) },
      parsed_body_type: 'multisig_update_params',
      send_mode: null,
    };
  }
  if (a.type === 'unknown') {
    // Neither send_message nor update_multisig_params (or one that does not fit its layout): the raw action.
    const what = a.opcode === null ? 'no opcode' : `opcode ${opcodeHex(a.opcode)}`;
    return { destination: null, value: null, body_raw: bocBase64(a.cell), parsed: false, error: `unknown order action (${what})`, parsed_body: null, parsed_body_type: 'unknown', send_mode: null };
  }
  const info = a.message.info;
  const internal = info.type === 'internal';
  const out: MultisigOrderActionJson = {
    destination: internal ? rawUpper(info.dest) : null,
    value: internal ? info.value.coins.toString() : null,
    body_raw: bocBase64(a.message.body),
    parsed: false,
    error: null,
    parsed_body: null,
    parsed_body_type: null,
    send_mode: a.sendMode,
  };
  try {
    const [type, body] = parseBody(a.message.body);
    return { ...out, parsed: true, parsed_body_type: type, parsed_body: body };
  } catch (e) {
    return { ...out, error: e instanceof BodyNotDecoded ? e.message : 'body does not parse' };
  }
}

/** The actions of an order cell; an order cell that is no Hashmap 8 ^Action gives one unparsed action. */
export function orderActions(order: Cell): MultisigOrderActionJson[] {
  let parsed: ParsedMultisigAction[];
  try {
    parsed = parseMultisigOrder(order);
  } catch {
    return [actionJson({ type: 'unknown', opcode: null, cell: order })];
  }
  return parsed.map(actionJson);
}
