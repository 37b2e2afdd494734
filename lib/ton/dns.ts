/**
 * TEP-81 DNS, reader side: domain names in their internal form, categories, and DNSRecord cells.
 *   dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8) …
 *   dns_next_resolver#ba93 resolver:MsgAddressInt
 *   dns_adnl_address#ad01 adnl_addr:bits256 flags:(## 8) …
 *   dns_storage_address#7473 bag_id:bits256
 */
import { sha256_sync } from '@ton/crypto';
import { Address, Cell } from '@ton/core';

export const DNS_CATEGORY_NAMES = ['wallet', 'site', 'storage', 'dns_next_resolver'] as const;

/** A category: sha256 of its name, as a 256-bit number. */
export function dnsCategory(name: string): bigint {
  return BigInt('0x' + sha256_sync(Buffer.from(name, 'utf8')).toString('hex'));
}

const NAMES = new Map(DNS_CATEGORY_NAMES.map((n) => [dnsCategory(n), n]));

/** The category's name, or its 64-digit hex when it is not one of TEP-81's. */
export function dnsCategoryName(category: bigint): string {
  return NAMES.get(category) ?? category.toString(16).padStart(64, '0');
}

/** Internal form of a domain: labels reversed, each followed by a zero byte ("alice.ton" → "ton\0alice\0"). */
export function dnsInternalName(domain: string): Buffer {
  const labels = domain.split('.').filter((l) => l.length > 0).reverse();
  return Buffer.concat(labels.map((l) => Buffer.concat([Buffer.from(l, 'utf8'), Buffer.from([0])])));
}

export type DnsRecord =
  | { type: 'smc_address'; address: Address }
  | { type: 'next_resolver'; address: Address }
  | { type: 'adnl_address'; adnl: Buffer }
  | { type: 'storage_address'; bagId: Buffer }
  | { type: 'unknown'; cell: Cell };

export function parseDnsRecord(cell: Cell): DnsRecord {
  try {
    const s = cell.beginParse();
    switch (s.loadUint(16)) {
      case 0x9fd3:
        return { type: 'smc_address', address: s.loadAddress() };
      case 0xba93:
        return { type: 'next_resolver', address: s.loadAddress() };
      case 0xad01:
        return { type: 'adnl_address', adnl: s.loadBuffer(32) };
      case 0x7473:
        return { type: 'storage_address', bagId: s.loadBuffer(32) };
    }
  } catch {
    // fall through: not a record we can read
  }
  return { type: 'unknown', cell };
}
