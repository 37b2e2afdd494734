// LayerZero v2 on TON. Its contracts (written in funC++) pass objects in the body's first ref, in the
// funC++ class layout: a 10-byte name, 15 field descriptors of 18 bits (type:4 cell:2 offset:10
// ref:2; type 15 = unused), then the data in the root cell and its refs. Integer fields sit at `offset`
// bits into cell `cell` (0 the root, n its ref n); object and cell fields are ref `ref` of that cell.
// The flows:
// - send: the OApp (after the user's jetton transfer, for an OFT) asks the endpoint to send
//   (#dd4ea3b4 lzSend); the endpoint, the channel, the message library and its manager price and
//   number the packet, and the channel answers the OApp (#a2b5fbae) with the final lzSend (request id,
//   fees, message library, the packet with its nonce and guid);
// - commit: an executor commits a verified packet: … → the endpoint → the channel (#5388cd88, with
//   the packet and the message-library connection that committed it);
// - DVN verify: the DVN admin's signed request (#a0d51a8d) → DVN → its proxy → the ULN → the ULN
//   connection (#4ec8f80a UlnVerify), which answers the proxy with the verification status;
// - receive: the executor asks the channel to deliver (#22f3ac09), the channel hands the packet to
//   the OApp (#97df404c), which takes it and reports back.
import type { Cell } from '@ton/core';
import type { ActionData } from '../model';
import { snakeBytes } from '../../ton/snake';
import type { Node } from '../tree';
import { OP } from './jettons';
import type { Matcher } from './matcher';

export const LZ = {
  endpointSend: 0xdd4ea3b4,
  channelSendCallback: 0xa2b5fbae,
  channelCommitPacket: 0x5388cd88,
  connectionVerify: 0x4ec8f80a,
  verifyCallback: 0x3cb38090,
  receivePrepare: 0x22f3ac09,
  oappReceivePrepare: 0x97df404c,
  event: 0xe33b9873,
} as const;

// ---- funC++ objects -------------------------------------------------------------------------------

const INT_WIDTH: Record<number, number> = { 0: 1, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128, 8: 256 };
const HEADER_BITS = 80 + 15 * 18;

/** The class name of an object cell, or null when the cell is no funC++ object. */
function className(c: Cell): string | null {
  if (c.bits.length < HEADER_BITS) return null;
  const name = c.beginParse().loadBuffer(10).toString('latin1').replace(/^\0+/, '');
  return /^[A-Za-z0-9_]+$/.test(name) ? name : null;
}

function descriptor(c: Cell, i: number) {
  const s = c.beginParse();
  s.skip(80 + i * 18);
  return { type: s.loadUint(4), cell: s.loadUint(2), offset: s.loadUint(10), ref: s.loadUint(2) };
}

const dataCell = (c: Cell, id: number): Cell => {
  const d = id === 0 ? c : c.refs[id];
  if (!d) throw new Error('funC++ field outside its object');
  return d;
};

/** Integer field `i` (addresses are 256-bit integers). */
function int(c: Cell, i: number): bigint {
  const f = descriptor(c, i);
  const width = INT_WIDTH[f.type];
  if (width === undefined) throw new Error('not an integer field');
  const s = dataCell(c, f.cell).beginParse();
  s.skip(f.offset);
  return s.loadUintBig(width);
}

/** Object or cell field `i`. */
function ref(c: Cell, i: number): Cell {
  const f = descriptor(c, i);
  const r = dataCell(c, f.cell).refs[f.ref];
  if (!r) throw new Error('missing funC++ ref');
  return r;
}

/** Field `i` when the object is of class `name`. */
function object(c: Cell | undefined, name: string): Cell {
  if (!c || className(c) !== name) throw new Error(`expected ${name}`);
  return c;
}

/** The object in a message body's first ref. */
const bodyObject = (n: Node, name: string): Cell => object(n.cell?.refs[0], name);

// ---- values as toncenter prints them ----------------------------------------------------------------

const hex = (v: bigint) => '0x' + v.toString(16);
const rawAddress = (v: bigint) => '0:' + v.toString(16).padStart(64, '0').toUpperCase();

/** lz::Packet as layerzero_packet_data: path (src eid/OApp, dst eid/OApp), message bytes, nonce, guid. */
function packetData(packet: Cell): ActionData {
  const path = object(ref(packet, 0), 'path');
  return {
    src_oapp: hex(int(path, 1)),
    dst_oapp: hex(int(path, 3)),
    src_eid: Number(int(path, 0)),
    dst_eid: Number(int(path, 2)),
    nonce: int(packet, 2),
    guid: hex(int(packet, 3)),
    message: '0x' + snakeBytes(ref(packet, 1).beginParse()).toString('hex'),
  };
}

// ---- matchers ----------------------------------------------------------------------------------------

/**
 * The OApp's send through the endpoint: endpoint → channel → message library connection → ULN, and
 * the channel's answer to the OApp with the send as it went out (request id, fees, the packet with its
 * nonce and guid). Initiated by the OApp (the endpoint's caller); failed without the channel's answer.
 */
const send: Matcher = (node, ctx) => {
  if (!node.free || !node.parent) return;
  const oapp = node.source;
  const callback = [...node.descendants()].find((n) => n.opcode === LZ.channelSendCallback && n.destination === oapp);
  const lzSend = callback ? object(ref(bodyObject(callback, 'MdObj'), 0), 'MsgReceipt') : null;
  const sent = lzSend ? object(ref(lzSend, 0), 'lzSend') : bodyObject(node, 'lzSend');
  const channel = callback?.source ?? node.children.find((c) => c.kind === 'tx')?.destination ?? null;
  ctx.claim('layerzero_send', [node, ...node.descendants()], {
    source: oapp,
    layerzero_send_data: {
      send_request_id: int(sent, 0),
      native_fee: int(sent, 5),
      zro_fee: int(sent, 6),
      endpoint: node.destination,
      channel,
      uln: rawAddress(int(sent, 2)),
      msglib_manager: hex(int(sent, 1)),
      msglib: hex(int(sent, 2)),
    },
    layerzero_packet_data: packetData(object(ref(sent, 4), 'Packet')),
  }, !callback || node.failed);
};

/** A send funded by a jetton transfer to the OApp (an OFT): the transfer, the send and the OApp's OFTSent log as one action. */
const sendTokens: Matcher = (node, ctx) => {
  const sent = node.block;
  const notify = node.parent;
  const transfer = notify?.block;
  if (sent.type !== 'layerzero_send' || sent.parent || notify?.opcode !== OP.notify || transfer?.type !== 'jetton_transfer' || transfer.parent) return;
  const events = notify.children.filter((c) => c.kind === 'log' && c.opcode === LZ.event);
  ctx.claim('layerzero_send_tokens', [...transfer.nodes, ...sent.nodes, ...events], {
    source: transfer.fields.source ?? null,
    source_secondary: transfer.fields.source_secondary ?? null,
    destination: transfer.fields.destination ?? null,
    destination_secondary: transfer.fields.destination_secondary ?? null,
    asset: transfer.fields.asset ?? null,
    amount: transfer.fields.amount ?? null,
    layerzero_send_data: sent.fields.layerzero_send_data,
    layerzero_packet_data: sent.fields.layerzero_packet_data,
  }, sent.failed || transfer.failed);
};

const commitPacket: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== LZ.channelCommitPacket || !node.parent) return;
  const md = bodyObject(node, 'extendedMd');
  const packet = object(ref(md, 0), 'Packet');
  // executor → ULN → ULN connection → endpoint → channel
  const endpoint = node.parent;
  const start = endpoint.parent?.parent ?? endpoint.parent ?? endpoint;
  // The request that started the commit names the ULN it went through (MdAddr: packet, ULN).
  let uln: string | null = null;
  try {
    uln = rawAddress(int(bodyObject(start, 'MdAddr'), 1));
  } catch {
    uln = endpoint.source;
  }
  ctx.claim('layerzero_commit_packet', [start, ...start.descendants()], {
    source: start.source,
    source_secondary: endpoint.destination,
    destination: uln,
    destination_secondary: endpoint.source,
    asset: node.destination,
    asset_secondary: rawAddress(int(md, 2)),
    layerzero_packet_data: packetData(packet),
  }, node.failed);
};

/** crc32 of "UlnConnection::ULN_CONNECTION_VERIFY_SUCCEEDED": the ULN connection's status of a verification it took. */
const VERIFY_SUCCEEDED = 0x3bbc306b;

const dvnVerify: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== LZ.connectionVerify) return;
  const md = bodyObject(node, 'extendedMd');
  const verify = object(ref(md, 0), 'UlnVerify');
  const uln = node.parent;
  const proxy = uln?.parent ?? null;
  const dvn = proxy?.parent ?? null;
  const start = dvn ?? proxy ?? uln ?? node;
  const answer = node.child(LZ.verifyCallback);
  let status: string | null = null;
  if (answer) {
    const code = Number(int(object(ref(bodyObject(answer, 'MdObj'), 0), 'veristatus'), 1));
    status = code === VERIFY_SUCCEEDED ? 'succeeded' : null;
  }
  ctx.claim('layerzero_dvn_verify', [start, ...start.descendants()], {
    source: start.source,
    destination: dvn?.destination ?? null,
    layerzero_dvn_verify_data: {
      nonce: int(verify, 0),
      status,
      dvn: dvn?.destination ?? null,
      proxy: proxy?.destination ?? null,
      uln: uln?.destination ?? null,
      uln_connection: node.destination,
    },
  }, node.failed || status !== 'succeeded');
};

const receive: Matcher = (node, ctx) => {
  if (!node.free || node.opcode !== LZ.oappReceivePrepare || node.parent?.opcode !== LZ.receivePrepare) return;
  const packet = bodyObject(node, 'Packet');
  const request = node.parent;
  ctx.claim('layerzero_receive', [request, ...request.descendants()], {
    source: request.source,
    destination: node.destination,
    destination_secondary: node.source,
    layerzero_packet_data: packetData(packet),
  }, node.failed);
};

export const layerzeroMatchers = { send, sendTokens, commitPacket, dvnVerify, receive };
