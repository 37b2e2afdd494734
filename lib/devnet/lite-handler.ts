/**
 * The devnet's lite_api: every liteServer function ton-lite-client 3.1.1 knows, plus
 * listBlockTransactionsExt and lookupBlockWithProof, answered from the chain (lib/devnet/chain.ts)
 * through the transport's dispatcher (a thrown LiteServerError becomes liteServer.error).
 *
 * Semantics follow the node's liteserver where clients can tell: lookupBlock by lt returns the
 * first block whose end_lt ≥ lt and by utime the first block generated at or after it (the node's
 * LtDb); getTransactions returns at most 16 transactions (max_transaction_count) and fails when the
 * first one is not where lt/hash say; getOneTransaction answers an empty transaction when the block
 * has none at that lt; runSmcMethod runs against the account state of the block asked for, with
 * that block's gen_utime as `now`.
 *
 * States of the newest `stateWindow` rounds (and the zero states) are in memory; account state and
 * get-methods at an older block answer liteServer.error saying so. getBlockProof builds the node's
 * proof chains (forward links signed by the devnet's validators, lib/devnet/validators.ts; backward
 * links through OldMcBlocksInfo) and getShardBlockProof the masterchain block naming a shard block;
 * getValidatorStats, getLibrariesWithProof and nonfinal.* answer liteServer.error.
 */
import { createHash } from 'node:crypto';
import {
  Address,
  Cell,
  Dictionary,
  beginCell,
  loadAccount,
  parseTuple,
  type TupleItem,
} from '@ton/core';
import {
  accountPrefix,
  isShardId,
  listShards,
  loadMcBlockExtra,
  loadOutMsgQueueInfo,
  outMsgQueueEntries,
  shardContains,
  shardsIntersect,
  prunedBranch,
  serializeBoc,
  shardStateConfigProof,
  storeShardDescr,
  storeShardHashes,
  type BlockSignature,
  type ShardHashes,
} from '../ton';
import { isAccountNone, RawShardAccounts } from './accounts';
import type { BlockMeta, DevnetChain } from './chain';
import { checkExternal } from './external-check';
import {
  accountStateProof,
  blockAccountProof,
  blockHeaderProof,
  blockShardHashesProof,
  blockTransactionsProof,
  keyBlockConfigProof,
  prevBlockStateProof,
  shardHashesProof,
  zeroStateConfigProof,
} from './proofs';
import { BASECHAIN, FULL_SHARD, FULL_SHARD_TL, MASTERCHAIN, readMcStateExtra, readShardState } from './state';
import {
  LiteErrorCodes,
  LiteServerError,
  createLiteDispatcher,
  type LiteCallContext,
  type LiteQueryHandler,
  type liteServer_accountId,
  type liteServer_transactionId,
  type tonNode_blockIdExt,
} from '../lite/tl/codec';

/** liteServer.getVersion: the node's lite server version 1.1 and capabilities 7. */
export const LITE_VERSION = 0x101;
export const LITE_CAPABILITIES = '7';
/** The node's max_transaction_count for getTransactions. */
export const MAX_TRANSACTIONS = 16;
/** Upper bound of listBlockTransactions' count (the node caps it too). */
export const MAX_BLOCK_TRANSACTIONS = 256;
/** Libraries per getLibraries call (the node's limit). */
export const MAX_LIBRARIES = 16;
/** Links of a getBlockProof answer (the node's limit); the client asks again from where it ended. */
const MAX_PROOF_LINKS = 16;
/** Longest wait for a waitMasterchainSeqno prefix. */
const MAX_WAIT_MS = 30_000;

/** Config params left out of get-method runs: validator sets and the suspended-address list. */
const GET_METHOD_CONFIG_OMITS = [32, 34, 36, 44];

const NOT_FOUND = LiteErrorCodes.notready;

/** A small LRU map: block data never changes meaning, so answers about a block can be reused. */
class Lru<V> {
  readonly #map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): V {
    this.#map.delete(key);
    this.#map.set(key, v);
    if (this.#map.size > this.size) this.#map.delete(this.#map.keys().next().value as string);
    return v;
  }
}

export interface DevnetLiteHandlerOptions {
  /** Gas limit of runSmcMethod (default 10M, the sandbox's). */
  getMethodGasLimit?: bigint;
}

const tlId = (m: BlockMeta): tonNode_blockIdExt => ({
  kind: 'tonNode.blockIdExt',
  workchain: m.workchain,
  shard: BigInt.asIntN(64, m.shard).toString(),
  seqno: m.seqno,
  rootHash: m.rootHash,
  fileHash: m.fileHash,
});

const idStr = (id: { workchain: number; shard: string; seqno: number }) =>
  `(${id.workchain},${BigInt.asUintN(64, BigInt(id.shard)).toString(16)},${id.seqno})`;

const EMPTY: Buffer = Buffer.alloc(0);

function bocOrEmpty(cells: Cell[]): Buffer {
  return cells.length > 0 ? serializeBoc(cells) : EMPTY;
}

/** A shard id of a workchain the devnet has (any valid id: lookups read it as an account prefix). */
function checkShard(workchain: number, shard: string): bigint {
  if (workchain !== MASTERCHAIN && workchain !== BASECHAIN) {
    throw new LiteServerError(NOT_FOUND, `workchain ${workchain} does not exist on the devnet`);
  }
  const s = BigInt.asUintN(64, BigInt(shard));
  if (!isShardId(s)) throw new LiteServerError(LiteErrorCodes.protoviolation, `invalid shard id ${s.toString(16)}`);
  if (workchain === MASTERCHAIN && s !== FULL_SHARD) throw new LiteServerError(NOT_FOUND, 'the masterchain has only shard 8000000000000000');
  return s;
}

function extraCurrencies(balance: { other?: Dictionary<number, bigint> | null }): Record<number, bigint> | undefined {
  if (!balance.other || balance.other.size === 0) return undefined;
  const out: Record<number, bigint> = {};
  for (const [k, v] of balance.other) out[k] = v;
  return out;
}

export function createDevnetLiteHandler(chain: DevnetChain, opts: DevnetLiteHandlerOptions = {}): LiteQueryHandler {
  const gasLimit = opts.getMethodGasLimit ?? 10_000_000n;
  const headerProofs = new Lru<Cell>(1024);
  /** (block, account) → the proofs of a getAccountState answer. */
  const accountProofs = new Lru<{ proof: Buffer; shardProof: Buffer }>(4096);
  /** Account cell hash → its BoC, and the parts a get-method needs. */
  const accountBocs = new Lru<Buffer>(4096);
  const shardProofs = new Lru<Buffer>(256);
  const signatures = new Lru<BlockSignature[]>(1024);
  const accountParts = new Lru<{ state: string; code?: Cell; data?: Cell; balance: { coins: bigint; other?: Dictionary<number, bigint> | null } }>(4096);
  let getMethodConfig: { key: string; base64: string } | undefined; // key: the sandbox's config BoC (base64)

  const ready = () => {
    const last = chain.lastBlock(MASTERCHAIN);
    if (!last) throw new LiteServerError(NOT_FOUND, 'the devnet is starting: no zero state yet');
    return last;
  };

  const resolve = (id: tonNode_blockIdExt): BlockMeta => {
    // A full id names one block, shard included (as a real liteserver's block database keys it).
    const shard = checkShard(id.workchain, id.shard);
    const m = chain.block(id.workchain, id.seqno, shard);
    if (!m) throw new LiteServerError(NOT_FOUND, `block ${idStr(id)} not found`);
    if (!m.rootHash.equals(id.rootHash) || !m.fileHash.equals(id.fileHash)) {
      throw new LiteServerError(NOT_FOUND, `block ${idStr(id)} with root hash ${id.rootHash.toString('hex')} is not a block of this devnet`);
    }
    return m;
  };

  const headerProof = (m: BlockMeta): Cell | undefined => {
    if (m.seqno === 0) return undefined;
    const key = `${m.workchain}:${m.shard}:${m.seqno}`;
    return headerProofs.get(key) ?? headerProofs.set(key, blockHeaderProof(chain.store.root(m)));
  };

  const stateOf = (m: BlockMeta): Cell => {
    const s = chain.state(m.workchain, m.seqno, m.shard);
    if (!s) {
      throw new LiteServerError(
        NOT_FOUND,
        `state of block ${idStr(tlId(m))} is no longer kept: the devnet keeps the states of its last ${chain.stateWindow} blocks`,
      );
    }
    return s;
  };

  /** The block and state holding `account` as seen from block `id`. */
  const accountContext = (id: tonNode_blockIdExt, account: liteServer_accountId) => {
    const block = resolve(id);
    if (account.workchain !== MASTERCHAIN && account.workchain !== BASECHAIN) {
      throw new LiteServerError(NOT_FOUND, `workchain ${account.workchain} does not exist on the devnet`);
    }
    let shardBlock: BlockMeta;
    const prefix = accountPrefix(account.id);
    if (block.workchain === MASTERCHAIN) {
      // Masterchain block k registers every basechain shard's block k (the chains advance in lockstep).
      shardBlock = account.workchain === MASTERCHAIN ? block : chain.blockHolding(BASECHAIN, block.seqno, prefix)!;
    } else {
      if (account.workchain !== BASECHAIN || !shardContains(block.shard, prefix)) throw new LiteServerError(LiteErrorCodes.error, 'the account is not in the shard of this block');
      shardBlock = block;
    }
    const state = stateOf(shardBlock);
    const id256 = BigInt('0x' + account.id.toString('hex'));
    const accounts = RawShardAccounts.fromCell(state.refs[1]);
    return { block, shardBlock, state, id256, sa: accounts.get(id256) };
  };

  const proofs = (ctx: ReturnType<typeof accountContext>) => {
    const key = `${ctx.block.workchain}:${ctx.block.shard}:${ctx.block.seqno}:${ctx.shardBlock.workchain}:${ctx.id256.toString(16)}`;
    return accountProofs.get(key) ?? accountProofs.set(key, buildProofs(ctx));
  };

  const buildProofs = (ctx: ReturnType<typeof accountContext>) => {
    const header = headerProof(ctx.shardBlock);
    const stateProof = accountStateProof(ctx.state, ctx.id256);
    const proof = serializeBoc(header ? [header, stateProof] : [stateProof, stateProof]);
    const shardProof = ctx.block.workchain === MASTERCHAIN && ctx.shardBlock.workchain === BASECHAIN ? shardProofOf(ctx.block) : EMPTY;
    return { proof, shardProof };
  };

  /** The masterchain block's header and state with the shard hashes: how it names its basechain block. */
  const shardProofOf = (mc: BlockMeta): Buffer => {
    const key = `${mc.seqno}`;
    const hit = shardProofs.get(key);
    if (hit) return hit;
    const mcState = chain.state(MASTERCHAIN, mc.seqno);
    const mcHeader = headerProof(mc);
    return shardProofs.set(key, mcState && mcHeader ? serializeBoc([mcHeader, shardHashesProof(mcState)]) : EMPTY);
  };

  const shardHashesAt = (mc: BlockMeta): ShardHashes => {
    if (mc.seqno === 0) return readMcStateExtra(readShardState(chain.state(MASTERCHAIN, 0)!).custom!).shardHashes;
    const custom = chain.store.root(mc).refs[3].refs[3];
    return loadMcBlockExtra(custom.beginParse()).shardHashes;
  };

  const configBase64 = (): string => {
    // blockchain.config decodes the whole BoC on each read: key the cache on the sandbox's string.
    const key = chain.blockchain.configBase64;
    if (getMethodConfig?.key !== key) {
      const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.blockchain.config);
      for (const k of GET_METHOD_CONFIG_OMITS) dict.delete(k);
      getMethodConfig = { key, base64: beginCell().storeDictDirect(dict).endCell().toBoc({ idx: false }).toString('base64') };
    }
    return getMethodConfig.base64;
  };

  const waitFor = async (seqno: number, timeoutMs: number): Promise<void> => {
    if (chain.lastSeqno >= seqno) return;
    await new Promise<void>((resolveWait, reject) => {
      const timer = setTimeout(
        () => {
          off();
          reject(new LiteServerError(LiteErrorCodes.timeout, `timeout waiting for masterchain block ${seqno} (last is ${chain.lastSeqno})`));
        },
        Math.min(Math.max(timeoutMs, 0), MAX_WAIT_MS),
      );
      const off = chain.onRound((r) => {
        if (r.seqno >= seqno) {
          clearTimeout(timer);
          off();
          resolveWait();
        }
      });
    });
  };

  // The node looks blocks up by account prefix: the shard id given is read as one, so any shard (or an
  // ancestor or descendant of one) finds the block of the shard holding that prefix at the time.
  const lookup = (mode: number, id: { workchain: number; shard: string; seqno: number }, lt?: string | null, utime?: number | null): BlockMeta => {
    const prefix = checkShard(id.workchain, id.shard);
    let m: BlockMeta | undefined;
    if (mode & 1) m = chain.blockHolding(id.workchain, id.seqno, prefix);
    else if (mode & 2) {
      if (lt === undefined || lt === null) throw new LiteServerError(LiteErrorCodes.protoviolation, 'lookupBlock: mode 2 needs lt');
      m = chain.store.byLt(id.workchain, BigInt(lt), prefix);
    } else if (mode & 4) {
      if (utime === undefined || utime === null) throw new LiteServerError(LiteErrorCodes.protoviolation, 'lookupBlock: mode 4 needs utime');
      m = chain.store.byUtime(id.workchain, utime, prefix);
    } else {
      throw new LiteServerError(LiteErrorCodes.protoviolation, 'lookupBlock: mode must have bit 0 (seqno), 1 (lt) or 2 (utime)');
    }
    if (!m || m.seqno > chain.lastSeqno) throw new LiteServerError(NOT_FOUND, 'ltdb: block not found');
    return m;
  };

  const selectTransactions = (req: {
    id: tonNode_blockIdExt;
    count: number;
    after?: { account: Buffer; lt: string } | null;
    reverseOrder?: boolean | null;
  }) => {
    const block = resolve(req.id);
    if (block.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block');
    let txs = chain.store.transactions(block);
    if (req.reverseOrder) txs = [...txs].reverse();
    let start = 0;
    if (req.after) {
      const acc = BigInt('0x' + req.after.account.toString('hex'));
      const lt = BigInt(req.after.lt);
      const beyond = (t: { account: bigint; lt: bigint }) =>
        req.reverseOrder ? t.account < acc || (t.account === acc && t.lt < lt) : t.account > acc || (t.account === acc && t.lt > lt);
      start = txs.findIndex(beyond);
      if (start < 0) start = txs.length;
    }
    const count = Math.min(req.count, MAX_BLOCK_TRANSACTIONS);
    const page = txs.slice(start, start + count);
    return { block, page, incomplete: start + page.length < txs.length };
  };

  /** The devnet's validators when they can sign (a devnet made before it had validators cannot). */
  const signingValidators = () => {
    const v = chain.validators;
    if (!v?.canSign) {
      throw new LiteServerError(
        LiteErrorCodes.failure,
        'this devnet was created before it had validators of its own (its configuration holds mainnet\'s set): its blocks carry no signatures; start a new devnet directory',
      );
    }
    return v;
  };

  const resolveMc = (id: tonNode_blockIdExt): BlockMeta => {
    if (id.workchain !== MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, `block ${idStr(id)} is not a masterchain block`);
    const m = resolve(id);
    if (m.seqno > chain.lastSeqno) throw new LiteServerError(NOT_FOUND, `block ${idStr(id)} not found`);
    return m;
  };

  /** Header proof of a masterchain block, or nothing for the zero state (a link's dest_proof). */
  const destProof = (m: BlockMeta): Buffer => {
    const p = headerProof(m);
    return p ? serializeBoc(p) : EMPTY;
  };

  const forwardLink = (from: BlockMeta, to: BlockMeta, validators: NonNullable<DevnetChain['validators']>) => ({
    kind: 'liteServer.blockLinkForward' as const,
    toKeyBlock: to.keyBlock,
    from: tlId(from),
    to: tlId(to),
    destProof: destProof(to),
    configProof: serializeBoc(from.seqno === 0 ? zeroStateConfigProof(chain.state(MASTERCHAIN, 0)!) : keyBlockConfigProof(chain.store.root(from))),
    signatures: {
      kind: 'liteServer.signatureSet' as const,
      validatorSetHash: validators.mcListHashShort | 0,
      catchainSeqno: 0,
      signatures: signaturesOf(to, validators).map((s) => ({ kind: 'liteServer.signature' as const, nodeIdShort: s.nodeIdShort, signature: s.signature })),
    },
  });

  const backLink = (from: BlockMeta, to: BlockMeta) => ({
    kind: 'liteServer.blockLinkBack' as const,
    toKeyBlock: to.keyBlock,
    from: tlId(from),
    to: tlId(to),
    destProof: destProof(to),
    proof: serializeBoc(headerProof(from)!),
    stateProof: serializeBoc(prevBlockStateProof(stateOf(from), to.seqno)),
  });

  const signaturesOf = (m: BlockMeta, validators: NonNullable<DevnetChain['validators']>) => {
    const key = `${m.seqno}`;
    return signatures.get(key) ?? signatures.set(key, validators.sign(m));
  };

  /** Key masterchain blocks (the zero state first), found once: prev(seqno) = the last at or before, next(seqno) = the first at or after. */
  const keyBlocks = (() => {
    const seqnos: number[] = [0];
    let scanned = 0;
    const refresh = () => {
      const list = chain.store.masterchain();
      for (; scanned < list.length; scanned++) if (list[scanned].keyBlock && list[scanned].seqno > 0) seqnos.push(list[scanned].seqno);
    };
    return {
      prev(seqno: number): BlockMeta {
        refresh();
        let k = 0;
        for (const s of seqnos) if (s <= seqno) k = s;
        return chain.block(MASTERCHAIN, k)!;
      },
      next(seqno: number): BlockMeta | undefined {
        refresh();
        const k = seqnos.find((s) => s >= seqno && s <= chain.lastSeqno);
        return k === undefined ? undefined : chain.block(MASTERCHAIN, k);
      },
    };
  })();

  const methods = {
    'liteServer.getMasterchainInfo': () => {
      const last = ready();
      const zero = chain.block(MASTERCHAIN, 0)!;
      return {
        kind: 'liteServer.masterchainInfo' as const,
        last: tlId(last),
        stateRootHash: chain.state(MASTERCHAIN, last.seqno)!.hash(),
        init: { kind: 'tonNode.zeroStateIdExt' as const, workchain: MASTERCHAIN, rootHash: zero.rootHash, fileHash: zero.fileHash },
      };
    },
    'liteServer.getMasterchainInfoExt': () => {
      const last = ready();
      const zero = chain.block(MASTERCHAIN, 0)!;
      return {
        kind: 'liteServer.masterchainInfoExt' as const,
        mode: 0,
        version: LITE_VERSION,
        capabilities: LITE_CAPABILITIES,
        last: tlId(last),
        lastUtime: last.genUtime,
        now: Math.floor(Date.now() / 1000),
        stateRootHash: chain.state(MASTERCHAIN, last.seqno)!.hash(),
        init: { kind: 'tonNode.zeroStateIdExt' as const, workchain: MASTERCHAIN, rootHash: zero.rootHash, fileHash: zero.fileHash },
      };
    },
    'liteServer.getTime': () => ({ kind: 'liteServer.currentTime' as const, now: Math.floor(Date.now() / 1000) }),
    'liteServer.getVersion': () => ({
      kind: 'liteServer.version' as const,
      mode: 0,
      version: LITE_VERSION,
      capabilities: LITE_CAPABILITIES,
      now: Math.floor(Date.now() / 1000),
    }),
    'liteServer.getBlock': (req: { id: tonNode_blockIdExt }) => {
      const m = resolve(req.id);
      if (m.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block (use liteServer.getState)');
      return { kind: 'liteServer.blockData' as const, id: tlId(m), data: chain.store.boc(m) };
    },
    'liteServer.getState': (req: { id: tonNode_blockIdExt }) => {
      const m = resolve(req.id);
      const state = stateOf(m);
      const data = serializeBoc(state);
      return {
        kind: 'liteServer.blockState' as const,
        id: tlId(m),
        rootHash: state.hash(),
        fileHash: m.seqno === 0 ? m.fileHash : sha256(data),
        data,
      };
    },
    'liteServer.getBlockHeader': (req: { id: tonNode_blockIdExt; mode: number }) => {
      const m = resolve(req.id);
      const p = headerProof(m);
      return { kind: 'liteServer.blockHeader' as const, id: tlId(m), mode: req.mode, headerProof: p ? serializeBoc(p) : EMPTY };
    },
    'liteServer.sendMessage': async (req: { body: Buffer }) => {
      let cell: Cell;
      try {
        cell = checkExternal(req.body, chain.sizeLimits());
      } catch (e) {
        throw new LiteServerError(0, `cannot apply external message to current state : failed to parse external message: ${errText(e)}`);
      }
      try {
        await chain.sendExternalBoc(cell);
      } catch (e) {
        throw new LiteServerError(0, `cannot apply external message to current state : ${rejectionText(e)}`);
      }
      return { kind: 'liteServer.sendMsgStatus' as const, status: 1 };
    },
    'liteServer.getAccountState': (req: { id: tonNode_blockIdExt; account: liteServer_accountId }) => {
      const ctx = accountContext(req.id, req.account);
      const { proof, shardProof } = proofs(ctx);
      const account = ctx.sa && !isAccountNone(ctx.sa.account) ? ctx.sa.account : undefined;
      const key = account?.hash().toString('latin1') ?? '';
      const state = account ? (accountBocs.get(key) ?? accountBocs.set(key, serializeBoc(account))) : EMPTY;
      return { kind: 'liteServer.accountState' as const, id: tlId(ctx.block), shardblk: tlId(ctx.shardBlock), shardProof, proof, state };
    },
    'liteServer.getAccountStatePrunned': (req: { id: tonNode_blockIdExt; account: liteServer_accountId }) => {
      const ctx = accountContext(req.id, req.account);
      const { proof, shardProof } = proofs(ctx);
      const state = ctx.sa && !isAccountNone(ctx.sa.account) ? serializeBoc(prunedBranch(ctx.sa.account)) : EMPTY;
      return { kind: 'liteServer.accountState' as const, id: tlId(ctx.block), shardblk: tlId(ctx.shardBlock), shardProof, proof, state };
    },
    'liteServer.runSmcMethod': async (req: {
      mode: number;
      id: tonNode_blockIdExt;
      account: liteServer_accountId;
      methodId: string;
      params: Buffer;
    }) => {
      const ctx = accountContext(req.id, req.account);
      const address = new Address(req.account.workchain, req.account.id);
      if (!ctx.sa || isAccountNone(ctx.sa.account)) {
        throw new LiteServerError(LiteErrorCodes.error, `cannot run get-method: account ${address.toRawString()} does not exist at block ${idStr(req.id)}`);
      }
      const key = ctx.sa.account.hash().toString('latin1');
      let parts = accountParts.get(key);
      if (!parts) {
        const s = ctx.sa.account.beginParse();
        s.loadBit();
        const acc = loadAccount(s);
        const st = acc.storage.state;
        parts = accountParts.set(key, {
          state: st.type,
          code: st.type === 'active' ? (st.state.code ?? undefined) : undefined,
          data: st.type === 'active' ? (st.state.data ?? undefined) : undefined,
          balance: acc.storage.balance,
        });
      }
      if (parts.state !== 'active') {
        throw new LiteServerError(LiteErrorCodes.error, `cannot run get-method: account ${address.toRawString()} is ${parts.state}, not active`);
      }
      const { code, data } = parts;
      if (!code || !data) throw new LiteServerError(LiteErrorCodes.error, `cannot run get-method: account ${address.toRawString()} has no code or data`);
      let stack: TupleItem[] = [];
      if (req.params.length > 0) {
        try {
          stack = parseTuple(Cell.fromBoc(req.params)[0]);
        } catch (e) {
          throw new LiteServerError(LiteErrorCodes.protoviolation, `cannot parse get-method parameters: ${errText(e)}`);
        }
      }
      const res = await chain.blockchain.executor.runGetMethod({
        code,
        data,
        methodId: Number(req.methodId),
        stack,
        config: configBase64(),
        verbosity: 'short',
        libs: chain.blockchain.libs,
        address,
        unixTime: ctx.shardBlock.genUtime,
        balance: parts.balance.coins,
        randomSeed: Buffer.alloc(32),
        gasLimit,
        debugEnabled: false,
        extraCurrency: extraCurrencies(parts.balance),
        prevBlocksInfo: undefined, // the executor adds the chain's current PREVBLOCKS
      });
      if (!res.output.success) throw new LiteServerError(LiteErrorCodes.error, `get-method failed: ${res.output.error}`);
      const mode = req.mode & 0b101;
      const p = mode & 1 ? proofs(ctx) : undefined;
      return {
        kind: 'liteServer.runMethodResult' as const,
        mode,
        id: tlId(ctx.block),
        shardblk: tlId(ctx.shardBlock),
        shardProof: p?.shardProof,
        proof: p?.proof,
        exitCode: res.output.vm_exit_code,
        result: mode & 4 ? Buffer.from(res.output.stack, 'base64') : undefined,
      };
    },
    'liteServer.getShardInfo': (req: { id: tonNode_blockIdExt; workchain: number; shard: string; exact: boolean }) => {
      const mc = resolve(req.id);
      if (mc.workchain !== MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, 'getShardInfo needs a masterchain block');
      const want = checkShard(req.workchain, req.shard);
      if (req.workchain === MASTERCHAIN) throw new LiteServerError(NOT_FOUND, 'the masterchain is not a shard of itself');
      // exact: that very shard; otherwise the shard holding it (the node walks the BinTree along its prefix).
      const info = listShards(shardHashesAt(mc)).find((s) => s.workchain === req.workchain && (req.exact ? s.shard === want : shardContains(s.shard, want)));
      if (!info) throw new LiteServerError(NOT_FOUND, `shard ${req.workchain}:${want.toString(16)} not found`);
      const d = info.descr;
      return {
        kind: 'liteServer.shardInfo' as const,
        id: tlId(mc),
        shardblk: { kind: 'tonNode.blockIdExt' as const, workchain: req.workchain, shard: BigInt.asIntN(64, info.shard).toString(), seqno: d.seqno, rootHash: d.rootHash, fileHash: d.fileHash },
        shardProof: shardProofOf(mc),
        shardDescr: serializeBoc(beginCell().store(storeShardDescr(d)).endCell()),
      };
    },
    'liteServer.getAllShardsInfo': (req: { id: tonNode_blockIdExt }) => {
      const mc = resolve(req.id);
      if (mc.workchain !== MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, 'getAllShardsInfo needs a masterchain block');
      const p = headerProof(mc);
      return {
        kind: 'liteServer.allShardsInfo' as const,
        id: tlId(mc),
        proof: p ? serializeBoc(p) : EMPTY,
        data: serializeBoc(beginCell().store(storeShardHashes(shardHashesAt(mc))).endCell()),
      };
    },
    'liteServer.getOneTransaction': (req: { id: tonNode_blockIdExt; account: liteServer_accountId; lt: string }) => {
      const m = resolve(req.id);
      if (m.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block');
      if (req.account.workchain !== m.workchain || !shardContains(m.shard, accountPrefix(req.account.id))) {
        throw new LiteServerError(LiteErrorCodes.error, 'the block cannot contain the specified account');
      }
      const id256 = BigInt('0x' + req.account.id.toString('hex'));
      const lt = BigInt(req.lt);
      const tx = chain.store.transactions(m).find((t) => t.account === id256 && t.lt === lt);
      const root = chain.store.root(m);
      return {
        kind: 'liteServer.transactionInfo' as const,
        id: tlId(m),
        proof: serializeBoc(blockAccountProof(root, id256, tx !== undefined)),
        transaction: tx ? serializeBoc(tx.cell) : EMPTY,
      };
    },
    'liteServer.getTransactions': (req: { count: number; account: liteServer_accountId; lt: string; hash: Buffer }) => {
      const wc = req.account.workchain;
      if (wc !== MASTERCHAIN && wc !== BASECHAIN) throw new LiteServerError(NOT_FOUND, `workchain ${wc} does not exist on the devnet`);
      const id256 = BigInt('0x' + req.account.id.toString('hex'));
      let lt = BigInt(req.lt);
      let hash = req.hash;
      const ids: tonNode_blockIdExt[] = [];
      const cells: Cell[] = [];
      const count = Math.min(req.count, MAX_TRANSACTIONS);
      while (cells.length < count && lt !== 0n) {
        const m = chain.store.byLt(wc, lt, accountPrefix(req.account.id));
        const tx = m && m.seqno <= chain.lastSeqno ? chain.store.transactions(m).find((t) => t.account === id256 && t.lt === lt) : undefined;
        if (!m || !tx) {
          if (cells.length === 0) throw new LiteServerError(LiteErrorCodes.error, 'cannot locate transaction in block with specified logical time');
          break;
        }
        if (!tx.hash.equals(hash)) {
          if (cells.length === 0) throw new LiteServerError(LiteErrorCodes.error, 'transaction hash mismatch');
          break;
        }
        ids.push(tlId(m));
        cells.push(tx.cell);
        const s = tx.cell.beginParse();
        s.skip(4 + 256 + 64);
        hash = s.loadBuffer(32);
        lt = s.loadUintBig(64);
      }
      return { kind: 'liteServer.transactionList' as const, ids, transactions: bocOrEmpty(cells) };
    },
    'liteServer.lookupBlock': (req: { mode: number; id: { workchain: number; shard: string; seqno: number }; lt?: string | null; utime?: number | null }) => {
      const m = lookup(req.mode, req.id, req.lt, req.utime);
      const p = headerProof(m);
      return { kind: 'liteServer.blockHeader' as const, id: tlId(m), mode: req.mode, headerProof: p ? serializeBoc(p) : EMPTY };
    },
    'liteServer.lookupBlockWithProof': (req: {
      mode: number;
      id: { workchain: number; shard: string; seqno: number };
      mcBlockId: tonNode_blockIdExt;
      lt?: string | null;
      utime?: number | null;
    }) => {
      const m = lookup(req.mode, req.id, req.lt, req.utime);
      const mc = chain.block(MASTERCHAIN, m.seqno)!; // lockstep: masterchain block k registers the basechain blocks of round k
      const p = headerProof(m);
      // Its predecessor in the same place: the shard's, the parent's after a split, the left child's after a merge.
      const prev = m.seqno > 0 ? chain.blockHolding(m.workchain, m.seqno - 1, m.shard) : undefined;
      const pp = prev && (req.mode & 6) !== 0 ? headerProof(prev) : undefined;
      return {
        kind: 'liteServer.lookupBlockResult' as const,
        id: tlId(m),
        mode: req.mode,
        mcBlockId: tlId(mc),
        clientMcStateProof: EMPTY,
        mcBlockProof: EMPTY,
        shardLinks: [],
        header: p ? serializeBoc(p) : EMPTY,
        prevHeader: pp ? serializeBoc(pp) : EMPTY,
      };
    },
    'liteServer.listBlockTransactions': (req: {
      id: tonNode_blockIdExt;
      mode: number;
      count: number;
      after?: { account: Buffer; lt: string } | null;
      reverseOrder?: boolean | null;
      wantProof?: boolean | null;
    }) => {
      const { block, page, incomplete } = selectTransactions(req);
      const mode = req.mode & 7;
      const ids: liteServer_transactionId[] = page.map((t) => ({
        kind: 'liteServer.transactionId',
        mode: req.mode, // the node echoes the request's mode (liteserver.cpp finish_listBlockTransactions)
        account: mode & 1 ? Buffer.from(t.account.toString(16).padStart(64, '0'), 'hex') : undefined,
        lt: mode & 2 ? t.lt.toString() : undefined,
        hash: mode & 4 ? t.hash : undefined,
      }));
      return {
        kind: 'liteServer.blockTransactions' as const,
        id: tlId(block),
        reqCount: req.count,
        incomplete,
        ids,
        proof: req.wantProof ? serializeBoc(blockTransactionsProof(chain.store.root(block))) : EMPTY,
      };
    },
    'liteServer.listBlockTransactionsExt': (req: {
      id: tonNode_blockIdExt;
      mode: number;
      count: number;
      after?: { account: Buffer; lt: string } | null;
      reverseOrder?: boolean | null;
      wantProof?: boolean | null;
    }) => {
      const { block, page, incomplete } = selectTransactions(req);
      return {
        kind: 'liteServer.blockTransactionsExt' as const,
        id: tlId(block),
        reqCount: req.count,
        incomplete,
        transactions: bocOrEmpty(page.map((t) => t.cell)),
        proof: req.wantProof ? serializeBoc(blockTransactionsProof(chain.store.root(block))) : EMPTY,
      };
    },
    'liteServer.getConfigAll': (req: { mode: number; id: tonNode_blockIdExt }) => configInfo(req.mode, req.id),
    'liteServer.getConfigParams': (req: { mode: number; id: tonNode_blockIdExt }) => configInfo(req.mode, req.id),
    'liteServer.getLibraries': (req: { libraryList: Buffer[] }) => {
      const libs = chain.blockchain.libs;
      const dict = libs
        ? Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), libs)
        : Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
      const result = [];
      const seen = new Set<string>();
      for (const hash of req.libraryList.slice(0, MAX_LIBRARIES)) {
        const key = hash.toString('hex');
        if (seen.has(key)) continue;
        seen.add(key);
        const lib = dict.get(hash);
        if (lib) result.push({ kind: 'liteServer.libraryEntry' as const, hash, data: serializeBoc(lib) });
      }
      return { kind: 'liteServer.libraryResult' as const, result };
    },
    'liteServer.getOutMsgQueueSizes': (req: { mode: number; wc?: number | null; shard?: string | null }) => {
      // The masterchain's queue stays empty (its messages are delivered in their round); each basechain shard's holds what it sent to other shards.
      const all = [{ meta: ready(), size: 0 }, ...chain.queueSizes()];
      const want = req.mode & 1 ? { wc: req.wc, shard: BigInt.asUintN(64, BigInt(req.shard ?? FULL_SHARD_TL)) } : undefined;
      const shards = all
        .filter(({ meta }) => !want || (meta.workchain === want.wc && shardsIntersect(meta.shard, want.shard)))
        .map(({ meta, size }) => ({ kind: 'liteServer.outMsgQueueSize' as const, id: tlId(meta), size }));
      return { kind: 'liteServer.outMsgQueueSizes' as const, shards, extMsgQueueSizeLimit: 0 };
    },
    'liteServer.getBlockOutMsgQueueSize': (req: { mode: number; id: tonNode_blockIdExt; wantProof?: boolean | null }) => {
      const m = resolve(req.id);
      if (req.wantProof) throw unavailable('out message queue proofs');
      const size = m.workchain === MASTERCHAIN ? 0 : outMsgQueueEntries(loadOutMsgQueueInfo(readShardState(stateOf(m)).outMsgQueueInfo).queue).size;
      return { kind: 'liteServer.blockOutMsgQueueSize' as const, mode: 0, id: tlId(m), size: String(size) };
    },
    'liteServer.getBlockProof': (req: { mode: number; knownBlock: tonNode_blockIdExt; targetBlock?: tonNode_blockIdExt | null }) => {
      const validators = signingValidators();
      const from = resolveMc(req.knownBlock);
      const to = req.mode & 1 && req.targetBlock ? resolveMc(req.targetBlock) : ready();
      const steps = [];
      let cur = from;
      // The node's construct_proof_chain: back to the previous key block, forward from a key block to
      // the next key block (or the target), back when the target is behind; at most 16 links an answer.
      while (steps.length < MAX_PROOF_LINKS && cur.seqno !== to.seqno) {
        let next: BlockMeta;
        if (to.seqno < cur.seqno) next = to;
        else {
          const prevKey = keyBlocks.prev(cur.seqno);
          if (prevKey.seqno !== cur.seqno) next = prevKey;
          else {
            next = keyBlocks.next(cur.seqno + 1) ?? to;
            steps.push(forwardLink(cur, next, validators));
            cur = next;
            continue;
          }
        }
        steps.push(backLink(cur, next));
        cur = next;
      }
      return { kind: 'liteServer.partialBlockProof' as const, complete: cur.seqno === to.seqno, from: tlId(from), to: tlId(cur), steps };
    },
    'liteServer.getShardBlockProof': (req: { id: tonNode_blockIdExt }) => {
      const m = resolve(req.id);
      if (m.workchain === MASTERCHAIN) throw new LiteServerError(LiteErrorCodes.error, 'getShardBlockProof needs a shard block (a masterchain block is its own proof)');
      if (m.seqno === 0) throw new LiteServerError(NOT_FOUND, 'the zero state is not a block');
      // Lockstep: masterchain block k registers every basechain block of round k as its shard's top
      // block (the node uses the masterchain block that registered the target), so one link (the
      // masterchain block's shard hashes naming it) reaches the target, before or after a split or merge.
      const mc = chain.block(MASTERCHAIN, m.seqno)!;
      return {
        kind: 'liteServer.shardBlockProof' as const,
        masterchainId: tlId(mc),
        links: [{ kind: 'liteServer.shardBlockLink' as const, id: tlId(m), proof: serializeBoc(blockShardHashesProof(chain.store.root(mc))) }],
      };
    },
    'liteServer.getValidatorStats': () => {
      throw unavailable('validator statistics (getValidatorStats)');
    },
    'liteServer.getLibrariesWithProof': () => {
      throw unavailable('library proofs (getLibrariesWithProof; use getLibraries)');
    },
    'liteServer.nonfinal.getValidatorGroups': () => {
      throw unavailable('non-final block candidates');
    },
    'liteServer.nonfinal.getCandidate': () => {
      throw unavailable('non-final block candidates');
    },
  };

  function configInfo(mode: number, id: tonNode_blockIdExt) {
    const m = resolve(id);
    if (m.workchain !== MASTERCHAIN) {
      throw new LiteServerError(LiteErrorCodes.error, 'configuration parameters can be loaded with respect to a masterchain block only');
    }
    const state = stateOf(m);
    const p = headerProof(m);
    return {
      kind: 'liteServer.configInfo' as const,
      mode: mode & 0xffff,
      id: tlId(m),
      stateProof: p ? serializeBoc(p) : EMPTY,
      configProof: serializeBoc(shardStateConfigProof(state)),
    };
  }

  return createLiteDispatcher(methods, {
    before: async (_fn, ctx: LiteCallContext) => {
      if (ctx.waitMasterchainSeqno) await waitFor(ctx.waitMasterchainSeqno.seqno, ctx.waitMasterchainSeqno.timeoutMs);
    },
  });
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function unavailable(what: string): LiteServerError {
  return new LiteServerError(
    LiteErrorCodes.failure,
    `the devnet does not serve ${what}`,
  );
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The executor's reason for rejecting an external, with its exit code (first line of the sandbox's error). */
export function rejectionText(e: unknown): string {
  const err = e as { exitCode?: unknown; message?: unknown };
  const first = String(err?.message ?? e).split('\n')[0].replace(/^Error while executing transaction: /, '');
  return typeof err?.exitCode === 'number' ? `${first} (exit code ${err.exitCode})` : first;
}
