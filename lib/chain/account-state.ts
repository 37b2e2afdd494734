// Reading an account (or the config) at a masterchain block, as the account/config/run-method routes
// do: the block is the latest one, or the one a `seqno` names (api-v2.md §2: "seqno on account/config
// methods is a masterchain seqno"), and the tonlib JSON pieces of account answers.
import { Address, beginCell, Cell, type Account } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { loadBlockInfo } from '../ton/block-info';
import { friendly } from '../ton/address';
import { MASTER_SHARD } from '../ton/shard';
import { TtlLru } from '../lite/cache';

const ZERO_HASH = Buffer.alloc(32);

export interface McBlock {
  id: tonNode_blockIdExt;
  /** gen_utime of that masterchain block (tonlib's `sync_utime`). */
  utime: number;
}

/** The latest masterchain block, or the one with `seqno` (a seqno the server does not have yet fails there: 500). */
export async function stateBlock(client: LiteClient, seqno?: number): Promise<McBlock> {
  if (seqno === undefined) {
    const info = await client.getMasterchainInfoExt();
    return { id: info.last, utime: info.lastUtime };
  }
  const header = await client.lookupBlockByID({ workchain: -1, shard: MASTER_SHARD.toString(), seqno });
  return { id: header.id, utime: headerUtime(header.headerProof) };
}

/** gen_utime from a block header proof: MERKLE_PROOF(Block) → block → info. */
function headerUtime(headerProof: Buffer): number {
  const block = Cell.fromBoc(headerProof)[0].refs[0];
  return loadBlockInfo(block.refs[0].beginParse()).genUtime;
}

export type AccountStatus = 'active' | 'uninitialized' | 'frozen';

export interface AccountAt {
  address: Address;
  block: McBlock;
  /** Null for an account that does not exist (account_none). */
  account: Account | null;
  /** The Account cell (account_none is a single 0 bit). */
  accountCell: Cell;
  lastTxLt: bigint;
  lastTxHash: Buffer;
  /** api-v2.md §2.2 state rule: code → active; no code → frozen when there is a frozen hash, else uninitialized. */
  status: AccountStatus;
  balance: bigint;
  code: Cell | null;
  data: Cell | null;
  frozenHash: Buffer | null;
}

/** The account at the latest masterchain block or the one with `seqno`. */
export async function accountAt(client: LiteClient, address: Address, seqno?: number): Promise<AccountAt> {
  return accountIn(client, address, await stateBlock(client, seqno));
}

/** The account at masterchain block `block`, with its last transaction (from the ShardAccount in the proof). */
export async function accountIn(client: LiteClient, address: Address, block: McBlock): Promise<AccountAt> {
  const res = await client.getAccountStateRaw(address, block.id);
  const account = res.state;
  // Read on demand: only a few methods need the cell, and reading the BoC again hashes every cell of it.
  let accountCell: Cell | undefined;
  const st = account?.storage.state;
  const code = st?.type === 'active' ? (st.state.code ?? null) : null;
  const data = st?.type === 'active' ? (st.state.data ?? null) : null;
  const frozenHash = st?.type === 'frozen' ? Buffer.from(st.stateHash.toString(16).padStart(64, '0'), 'hex') : null;
  const status: AccountStatus = code ? 'active' : frozenHash ? 'frozen' : 'uninitialized';
  return {
    address,
    block,
    account,
    get accountCell() {
      accountCell ??= res.raw.length > 0 ? Cell.fromBoc(res.raw)[0]! : beginCell().storeBit(false).endCell();
      return accountCell;
    },
    lastTxLt: res.lastTx?.lt ?? 0n,
    lastTxHash: res.lastTx ? Buffer.from(res.lastTx.hash.toString(16).padStart(64, '0'), 'hex') : ZERO_HASH,
    status,
    balance: account ? account.storage.balance.coins : 0n,
    code,
    data,
    frozenHash,
  };
}

/** extra_currencies of a balance: [{@type extraCurrency, id, amount}]. */
export function extraCurrenciesJson(a: AccountAt) {
  const other = a.account?.storage.balance.other;
  if (!other) return [];
  return [...other].map(([id, amount]) => ({ '@type': 'extraCurrency', id, amount: amount.toString() }));
}

/** tonlib's accountAddress object: the friendly url-safe bounceable form. */
export function accountAddressJson(a: Address) {
  return { '@type': 'accountAddress', account_address: friendly(a, { bounceable: true, urlSafe: true }) };
}

// BoCs by cell hash: the same code (and, until the account's next transaction, the same data) is asked
// for over and over, and serializing re-walks the whole tree. A hash names one BoC for good.
const bocs = new TtlLru<string, string>({ ttlMs: 60_000, maxEntries: 2000, maxBytes: 32 << 20, sizeOf: (b) => 64 + b.length });

export function bocBase64(c: Cell | null): string {
  if (!c) return '';
  const key = c.hash().toString('hex');
  let boc = bocs.get(key);
  if (boc === undefined) {
    boc = c.toBoc().toString('base64');
    bocs.set(key, boc);
  }
  return boc;
}
