// The derive stage: for each masterchain block, the interfaces of every account the block touched and
// the rows of the token tables, written in the block's own transaction (store.ts). Interfaces are
// decided once per code hash (get-method ids the code declares, confirmed by running the get-method on
// the indexed state) and kept in code_interfaces, so a restart does not run them again; get-methods run
// only for accounts whose code is a token interface, once per account and block. A get-method the
// contract made unusable (getters.ts) is a skip, written to derive_skips and counted for /api/health: the
// block is indexed without it, and a code whose interfaces could not be decided for that reason is not
// kept (it is decided again on the next account that has it).
import { Prisma, type PrismaClient } from '../../db/generated/client';
import type { LiteClient } from 'ton-lite-client';
import { contractMethods } from '../../ton/contract-methods';
import { isStateGone } from '../../lite';
import type { Logger } from '../../log';
import { enqueueMetadata } from '../../metadata';
import type { TvmPool } from '../../tvm/pool';
import { Address } from '@ton/core';
import { latestByAccount, parseAccountState, type AccountStateRecord } from '../account-state';
import type { ParsedBlock } from '../../chain/records';
import { hex, type Row, type TableRows } from '../sql';
import { mapConcurrent } from '../concurrent';
import { ACCOUNTS_AT_ONCE, type DerivedAccount, type Detector, type GetterRun } from './detector';
import { blockGetters, ChainReader, stateCell, type GetterBlock, type GetterSkip } from './getters';
import { jettonDetector } from './jettons';
import { multisigDetector } from './multisig';
import { nftDetector } from './nft';
import { tokenNameRows } from './token-names';
import { vestingDetector } from './vesting';

/** Every interface family the stage knows; a new family is a module implementing Detector, listed here. */
export const DETECTORS: readonly Detector[] = [jettonDetector, nftDetector, vestingDetector, multisigDetector];

export interface DeriverOptions {
  prisma: PrismaClient;
  lite: LiteClient;
  tvm: TvmPool;
  log: Logger;
  detectors?: readonly Detector[];
  /** Get-methods run with the whole configuration, not the getters' subset (getters.ts): index:verify. */
  fullConfig?: boolean;
}

export interface DeriveInput {
  mcSeqno: number;
  blocks: ParsedBlock[];
  states: AccountStateRecord[];
  /** The masterchain block the states were read at. */
  at: GetterBlock;
}

// Code hashes remembered; codes are few, the map is dropped wholesale if a strange index grows it.
const KNOWN_MAX = 100_000;

/** Skips so far in this process, for /api/health. */
export interface DeriveSkips {
  count: number;
  last?: { at: string; mcSeqno: number; address: string; method: string; reason: string };
}

const SKIP_COLUMNS = ['address', 'method', 'code_hash', 'mc_seqno', 'reason'] as const;
const SKIP_CONFLICT = `ON CONFLICT (address, method) DO UPDATE SET code_hash = EXCLUDED.code_hash, mc_seqno = EXCLUDED.mc_seqno, reason = EXCLUDED.reason, at = now()`;

export class Deriver {
  private readonly reader: ChainReader;
  readonly detectors: readonly Detector[];
  /** Interfaces by code hash (hex) decided in this process or read from code_interfaces. */
  private readonly known = new Map<string, Promise<string[]>>();
  readonly skips: DeriveSkips = { count: 0 };

  constructor(private readonly o: DeriverOptions) {
    this.reader = new ChainReader(o.lite, o.fullConfig);
    this.detectors = o.detectors ?? DETECTORS;
  }

  /** The token-table rows of one masterchain block (plus newly decided code interfaces). */
  async derive(input: DeriveInput): Promise<TableRows[]> {
    const skipped: GetterSkip[] = [];
    const run = blockGetters(this.reader, this.o.tvm, input.at, (skip) => {
      skipped.push(skip);
      this.noteSkip(input.mcSeqno, skip);
    });
    const latest = latestByAccount(input.states);
    const withCode = [...latest.values()].filter((s) => s.codeBoc && s.dataBoc && s.codeHash);
    await this.loadKnown(withCode.map((s) => s.codeHash!));

    const decided: Row[] = [];
    const found = await mapConcurrent(withCode, ACCOUNTS_AT_ONCE, async (state): Promise<DerivedAccount | null> => {
      const key = state.codeHash!.toString('hex');
      const cached = this.known.get(key);
      // Most touched accounts are wallets and contracts of no token family: nothing is parsed for them.
      if (cached && (await cached).length === 0) return null;
      const code = await this.reader.resolveCode(stateCell(state.codeBoc!));
      const account: DerivedAccount = { state, code, data: stateCell(state.dataBoc!), interfaces: [] };
      let interfaces = cached;
      if (!interfaces) {
        interfaces = this.decide(account, run);
        this.remember(key, interfaces);
        const found = await interfaces;
        // Undecided for a reason of this account's (its data, perhaps, not the code): nothing is kept, and
        // the code is decided again on the next account that has it (the pool's backoff keeps that cheap).
        if (skipped.some((s) => s.account === account)) this.forget(key, interfaces);
        else decided.push({ code_hash: hex(state.codeHash!), interfaces: found });
      }
      account.interfaces = await interfaces;
      return account.interfaces.length ? account : null;
    });
    // In the states' order, not the order get-methods finished in: the detectors' rows (and so the
    // insertion-order ids of the token tables) must not depend on timing.
    const accounts = new Map<string, DerivedAccount>();
    for (const a of found) if (a) accounts.set(a.state.account, a);

    const contents = new Map<string, Buffer>();
    for (const b of input.blocks) for (const c of b.contents) contents.set(c.hash.toString('hex'), c.boc);
    const others = new Map<string, Promise<DerivedAccount | null>>();
    const account = (address: string): Promise<DerivedAccount | null> => {
      const derived = accounts.get(address);
      if (derived) return Promise.resolve(derived);
      const touched = latest.get(address);
      if (touched) return this.accountOf(touched);
      let other = others.get(address);
      if (!other) {
        other = this.indexedAccount(address, input.at);
        others.set(address, other);
      }
      return other;
    };
    const out: TableRows[] = [];
    if (decided.length) out.push({ table: 'code_interfaces', columns: ['code_hash', 'interfaces'], rows: decided });
    const enqueue = (uris: string[]) => enqueueMetadata(this.o.prisma, uris);
    // The families side by side (their get-methods share the pool); their tables in DETECTORS order.
    const block = { mcSeqno: input.mcSeqno, blocks: input.blocks, accounts, contents, run, account, enqueueMetadata: enqueue };
    for (const rows of await Promise.all(this.detectors.map((d) => d.derive(block)))) out.push(...rows);
    return [...out, ...tokenNameRows(out), ...skipRows(input.mcSeqno, skipped)];
  }

  private noteSkip(mcSeqno: number, { account, method, reason }: GetterSkip): void {
    this.skips.count++;
    this.skips.last = { at: new Date().toISOString(), mcSeqno, address: account.state.account, method, reason };
    this.o.log.warn({ mcSeqno, address: account.state.account, method, reason }, 'derive: get-method skipped; interface unknown for this reason');
  }

  private async accountOf(state: AccountStateRecord): Promise<DerivedAccount | null> {
    if (!state.codeBoc || !state.dataBoc) return null;
    const code = await this.reader.resolveCode(stateCell(state.codeBoc));
    return { state, code, data: stateCell(state.dataBoc), interfaces: [] };
  }

  /**
   * An account the block did not touch, as the index last stored it; read from the lite server at the
   * block when the index does not hold it (yet: blocks are prepared while earlier ones are written).
   */
  private async indexedAccount(address: string, at: GetterBlock): Promise<DerivedAccount | null> {
    const r = await this.o.prisma.latestAccountState.findUnique({ where: { account: address } });
    if (!r) {
      const st = await this.o.lite.getAccountState(Address.parseRaw(address), at.id).catch(async (err: unknown) => {
        // As the indexer does for the accounts a block touched: a state no longer kept is read at the head.
        if (!isStateGone(err)) throw err;
        return this.o.lite.getAccountState(Address.parseRaw(address), (await this.o.lite.getMasterchainInfo()).last);
      });
      return this.accountOf(parseAccountState(address, st.raw, null, at.utime));
    }
    if (!r.codeBoc || !r.dataBoc) return null;
    const buf = (b: Uint8Array | null) => (b ? Buffer.from(b) : null);
    return this.accountOf({
      hash: Buffer.from(r.accountStateHash),
      account: r.account,
      balance: BigInt(r.balance.toFixed()),
      balanceExtraCurrencies: null,
      accountStatus: 'active',
      frozenHash: null,
      dataHash: buf(r.dataHash),
      codeHash: buf(r.codeHash),
      dataBoc: buf(r.dataBoc),
      codeBoc: buf(r.codeBoc),
      lastTransLt: r.lastTransLt,
      lastTransHash: Buffer.from(r.lastTransHash),
      timestamp: r.timestamp,
    });
  }

  /** Reads the interfaces of code hashes this process has not seen from code_interfaces (one query). */
  private async loadKnown(codeHashes: Buffer[]): Promise<void> {
    const missing = [...new Map(codeHashes.map((h) => [h.toString('hex'), h])).entries()].filter(([k]) => !this.known.has(k));
    if (!missing.length) return;
    const rows = await this.o.prisma.$queryRaw<{ code_hash: Uint8Array; interfaces: string[] }[]>(Prisma.sql`
      SELECT code_hash, interfaces FROM code_interfaces WHERE code_hash = ANY(${missing.map(([, h]) => new Uint8Array(h))}::bytea[])`);
    for (const r of rows) this.remember(Buffer.from(r.code_hash).toString('hex'), Promise.resolve(r.interfaces));
  }

  private forget(key: string, interfaces: Promise<string[]>): void {
    if (this.known.get(key) === interfaces) this.known.delete(key);
  }

  private remember(key: string, interfaces: Promise<string[]>): void {
    if (this.known.size >= KNOWN_MAX) this.known.clear();
    this.known.set(key, interfaces);
    interfaces.catch(() => this.forget(key, interfaces)); // decided again next time
  }

  /** The interfaces of a code seen for the first time: candidates by method ids, confirmed by a run. */
  private async decide(account: DerivedAccount, run: GetterRun): Promise<string[]> {
    const methods = new Set(contractMethods(account.code) ?? []);
    if (!methods.size) return [];
    const found: string[] = [];
    for (const d of this.detectors) {
      for (const iface of d.candidates(methods)) if (await d.confirm(iface, account, run)) found.push(iface);
    }
    if (found.length) this.o.log.info({ codeHash: account.state.codeHash!.toString('base64'), interfaces: found }, 'derive: new token code');
    return found.sort();
  }
}

/** derive_skips rows of one block: the newest skip of each account and method. */
function skipRows(mcSeqno: number, skipped: GetterSkip[]): TableRows[] {
  if (!skipped.length) return [];
  const rows = new Map<string, Row>();
  for (const { account, method, reason } of skipped) {
    const codeHash = account.state.codeHash;
    rows.set(`${account.state.account} ${method}`, { address: account.state.account, method, code_hash: codeHash ? hex(codeHash) : null, mc_seqno: mcSeqno, reason });
  }
  return [{ table: 'derive_skips', columns: SKIP_COLUMNS, rows: [...rows.values()], onConflict: SKIP_CONFLICT }];
}
