/**
 * The devnet's own TEP-81 `.ton` DNS: a collection (resolver of the zone, TEP-62 collection) and items
 * (TEP-62 NFTs resolving their own records), written in Tolk (./dns/*.tolk) and compiled at run time with
 * @ton/tolk-js. The compiled code is cached per process; nothing compiled is stored in the repository.
 */
import { sha256_sync } from '@ton/crypto';
import { Address, beginCell, Cell, contractAddress, Dictionary, Slice, StateInit } from '@ton/core';
import { compileTolk, tolkSourceDir } from './tolk';

export const OP_DNS_REGISTER = 0x2e6b1d21;
export const OP_DNS_ITEM_INIT = 0x1d0a4e11;
export const OP_CHANGE_DNS_RECORD = 0x4eb1f0f9;

function category(name: string): bigint {
  return BigInt('0x' + sha256_sync(Buffer.from(name, 'utf8')).toString('hex'));
}

/** TEP-81 categories: sha256 of the category name. */
export const DNS_CATEGORY = {
  wallet: category('wallet'),
  site: category('site'),
  storage: category('storage'),
  nextResolver: category('dns_next_resolver'),
} as const;

export const DNS_TAG = {
  smcAddress: 0x9fd3,
  adnlAddress: 0xad01,
  storageAddress: 0x7473,
  nextResolver: 0xba93,
} as const;

export interface DnsCode {
  collection: Cell;
  item: Cell;
  /** Milliseconds the compilation took (0 when served from the cache). */
  compileMs: number;
}

/** Where the .tolk sources are (see tolkSourceDir). */
export function defaultDnsSourceDir(): string {
  return tolkSourceDir('dns', 'dns-item.tolk');
}

let compiled: Promise<DnsCode> | null = null;

/**
 * Compile dns-collection.tolk and dns-item.tolk (once per process; later calls share the result).
 * `sourceDir` overrides where the .tolk files are read from (default: ./dns next to this module).
 */
export function compileDnsContracts(sourceDir?: string): Promise<DnsCode> {
  if (!compiled) {
    const started = performance.now();
    compiled = (async () => {
      const dir = sourceDir ?? defaultDnsSourceDir();
      const item = await compileTolk(dir, 'dns-item.tolk');
      const collection = await compileTolk(dir, 'dns-collection.tolk');
      return { collection, item, compileMs: Math.round(performance.now() - started) };
    })();
    compiled.catch(() => {
      compiled = null;
    });
    return compiled;
  }
  return compiled.then((c) => ({ ...c, compileMs: 0 }));
}

/** TEP-81 internal form of a domain: labels reversed, each followed by "\0" ("alice.ton" → "ton\0alice\0"). */
export function dnsInternalName(domain: string): Buffer {
  const labels = domain.split('.').filter((l) => l.length > 0).reverse();
  return Buffer.concat(labels.map((l) => Buffer.concat([Buffer.from(l, 'utf8'), Buffer.from([0])])));
}

/** The 256-bit item index of a label: sha256 of its bytes. */
export function dnsItemIndex(label: string): bigint {
  return category(label);
}

export function dnsCollectionInit(code: DnsCode, args: { admin: Address; content: Cell; workchain?: number }): {
  address: Address;
  init: StateInit & { code: Cell; data: Cell };
} {
  const data = beginCell().storeAddress(args.admin).storeUint(0, 64).storeRef(args.content).storeRef(code.item).endCell();
  const init = { code: code.collection, data };
  return { address: contractAddress(args.workchain ?? 0, init), init };
}

/** The data an item is deployed with (index and collection; the rest empty until the collection inits it). */
export function dnsItemInitialData(collection: Address, label: string): Cell {
  return beginCell()
    .storeUint(dnsItemIndex(label), 256)
    .storeAddress(collection)
    .storeAddress(null) // owner
    .storeMaybeRef(null) // domain
    .storeMaybeRef(null) // content
    .storeMaybeRef(null) // records
    .storeUint(0, 64) // last fill-up time: set when the collection inits the item
    .endCell();
}

export function dnsItemAddress(code: DnsCode, collection: Address, label: string): Address {
  return contractAddress(0, { code: code.item, data: dnsItemInitialData(collection, label) });
}

export type DnsRecord =
  | { type: 'smc_address'; address: Address }
  | { type: 'adnl_address'; adnl: Buffer }
  | { type: 'storage_address'; bagId: Buffer }
  | { type: 'next_resolver'; address: Address };

export function dnsRecordCell(r: DnsRecord): Cell {
  switch (r.type) {
    case 'smc_address':
      return beginCell().storeUint(DNS_TAG.smcAddress, 16).storeAddress(r.address).storeUint(0, 8).endCell();
    case 'adnl_address':
      return beginCell().storeUint(DNS_TAG.adnlAddress, 16).storeBuffer(r.adnl, 32).storeUint(0, 8).endCell();
    case 'storage_address':
      return beginCell().storeUint(DNS_TAG.storageAddress, 16).storeBuffer(r.bagId, 32).endCell();
    case 'next_resolver':
      return beginCell().storeUint(DNS_TAG.nextResolver, 16).storeAddress(r.address).endCell();
  }
}

export function parseDnsRecord(cell: Cell): DnsRecord {
  const s: Slice = cell.beginParse();
  const tag = s.loadUint(16);
  switch (tag) {
    case DNS_TAG.smcAddress:
      return { type: 'smc_address', address: s.loadAddress() };
    case DNS_TAG.adnlAddress:
      return { type: 'adnl_address', adnl: s.loadBuffer(32) };
    case DNS_TAG.storageAddress:
      return { type: 'storage_address', bagId: s.loadBuffer(32) };
    case DNS_TAG.nextResolver:
      return { type: 'next_resolver', address: s.loadAddress() };
    default:
      throw new Error(`unknown DNS record tag 0x${tag.toString(16)}`);
  }
}

/** A DNS_RecordSet (HashmapE 256 ^DNSRecord) from category → record. */
export function dnsRecordSet(records: { category: bigint; record: DnsRecord }[]): Dictionary<bigint, Cell> {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const r of records) dict.set(r.category, dnsRecordCell(r.record));
  return dict;
}

/** admin → collection: register `label`.ton for `owner` with `records`; the message value funds the item. */
export function dnsRegisterBody(args: {
  label: string;
  owner: Address;
  content: Cell;
  records: Dictionary<bigint, Cell>;
  queryId?: bigint;
}): Cell {
  const label = Buffer.from(args.label, 'utf8');
  if (label.length === 0 || label.length > 126 || label.includes(0) || args.label.includes('.')) throw new Error(`bad DNS label: ${args.label}`);
  return beginCell()
    .storeUint(OP_DNS_REGISTER, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.owner)
    .storeRef(beginCell().storeBuffer(label))
    .storeRef(args.content)
    .storeDict(args.records)
    .endCell();
}

/** owner → item: set (or with `record` null delete) the record of `category`. */
export function dnsChangeRecordBody(args: { category: bigint; record: DnsRecord | null; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(OP_CHANGE_DNS_RECORD, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeUint(args.category, 256)
    .storeMaybeRef(args.record ? dnsRecordCell(args.record) : null)
    .endCell();
}
