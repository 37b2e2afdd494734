// Real values learned from the chain behind the Atlas under test, so "valid" requests reach real
// accounts, blocks and transactions instead of stopping at "not found".
import { Address, beginCell, external, storeMessage, type Cell } from '@ton/core';
import { getJson } from './client';

export interface BlockRef {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

export interface TxRef {
  account: string;
  hash: string;
  lt: string;
  now: number;
  /** Hash of its inbound message, when it has one. */
  msgHash?: string;
}

export interface Corpus {
  /** Accounts of the transactions and senders of their messages, and a few that exist everywhere. */
  addresses: string[];
  txs: TxRef[];
  blocks: BlockRef[];
  /** The newest masterchain seqno seen. */
  lastSeqno: number;
  /** Message bodies seen on chain, as base64 BoCs. */
  bodies: string[];
  /** External messages to real accounts that the chain will reject (bad signature): sendBoc's 500 case. */
  externals: string[];
  /** BoCs that are small on the wire and costly to walk: a 1,000-deep cell chain and a 60-level DAG. */
  hostileBocs: string[];
}

/** A chain of `depth` cells, each referencing the next. */
function deepChain(depth: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 0; i < depth; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).endCell();
  return c;
}

/** `levels` cells, each referencing the one below four times: a tree walk visits 4^levels cells. */
function dag(levels: number): Cell {
  let c = beginCell().storeUint(1, 8).endCell();
  for (let i = 0; i < levels; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

export const hostileBocs = (): string[] => [deepChain(1000), dag(60)].map((c) => c.toBoc().toString('base64'));

interface V3Tx {
  account: string;
  hash: string;
  lt: string;
  now: number;
  in_msg?: { hash: string; source: string | null; message_content?: { body?: string } } | null;
}
interface V3Block {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

// Known to exist on every network: the zero account, the elector and the config contract.
const WELL_KNOWN = [`0:${'0'.repeat(64)}`, `-1:${'3'.repeat(64)}`, `-1:${'5'.repeat(64)}`];

export async function learnCorpus(base: URL, headers: Record<string, string>): Promise<Corpus> {
  const [txs, blocks] = await Promise.all([
    getJson<{ transactions: V3Tx[] }>(base, '/api/v3/transactions?limit=200', headers),
    getJson<{ blocks: V3Block[] }>(base, '/api/v3/blocks?limit=100', headers),
  ]);
  const t = txs?.transactions ?? [];
  const b = blocks?.blocks ?? [];
  const addresses = [...new Set([...t.map((x) => x.account), ...t.map((x) => x.in_msg?.source).filter((x): x is string => !!x), ...WELL_KNOWN])];
  const externals = addresses.slice(0, 8).map((a) =>
    beginCell()
      .store(storeMessage(external({ to: Address.parse(a), body: beginCell().storeUint(0xdeadbeef, 32).endCell() })))
      .endCell()
      .toBoc()
      .toString('base64'),
  );
  return {
    addresses,
    txs: t.map((x) => ({ account: x.account, hash: x.hash, lt: x.lt, now: x.now, ...(x.in_msg?.hash && { msgHash: x.in_msg.hash }) })),
    blocks: b.map((x) => ({ workchain: x.workchain, shard: x.shard, seqno: x.seqno, rootHash: x.root_hash, fileHash: x.file_hash })),
    lastSeqno: Math.max(1, ...b.filter((x) => x.workchain === -1).map((x) => x.seqno)),
    bodies: [...new Set(t.map((x) => x.in_msg?.message_content?.body).filter((x): x is string => !!x))].slice(0, 20),
    externals,
    hostileBocs: hostileBocs(),
  };
}
