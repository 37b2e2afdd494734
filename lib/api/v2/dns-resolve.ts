// dnsResolve (api-v2.md §2.2 `dns.resolved`): TEP-81 resolution as tonlib does it. The resolver's
// `dnsresolve(name, 0)` either consumes the whole internal name (its answer is the record set) or a
// prefix (its answer is a dns_next_resolver record); with `ttl` > 0 the rest of the name is asked of that
// next resolver, ttl − 1 times more, else the next-resolver entry is the answer.
import { ADNLAddress, Address, beginCell, Dictionary, type TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { TvmPool } from '../../tvm/pool';
import { dnsCategory, dnsInternalName, parseDnsRecord, type DnsRecord } from '../../ton/dns';
import { accountAddressJson, accountIn, type McBlock } from '../../chain/account-state';
import { V2Error, invalidRequest } from './errors';
import { runGetMethodOn } from '../../chain/get-method';

/** The TVM's exit code for a get-method the contract does not have. */
const EXIT_NO_METHOD = 11;

/** Longest internal name one cell holds (TEP-81 names are at most 126 bytes). */
export const MAX_DNS_NAME_BYTES = 127;

function entryData(r: DnsRecord): unknown {
  switch (r.type) {
    case 'smc_address':
      return { '@type': 'dns.entryDataSmcAddress', smc_address: accountAddressJson(r.address) };
    case 'next_resolver':
      return { '@type': 'dns.entryDataNextResolver', resolver: accountAddressJson(r.address) };
    case 'adnl_address':
      return { '@type': 'dns.entryDataAdnlAddress', adnl_address: { '@type': 'adnlAddress', adnl_address: new ADNLAddress(r.adnl).toString() } };
    case 'storage_address':
      return { '@type': 'dns.entryDataStorageAddress', bag_id: r.bagId.toString('hex') };
    case 'unknown':
      return { '@type': 'dns.entryDataUnknown', bytes: r.cell.toBoc().toString('base64') };
  }
}

const entry = (name: string, category: bigint, r: DnsRecord) => ({
  '@type': 'dns.entry',
  name,
  category: Buffer.from(category.toString(16).padStart(64, '0'), 'hex').toString('base64'),
  entry: entryData(r),
});

export async function dnsResolve(client: LiteClient, tvm: TvmPool, block: McBlock, resolver: Address, name: string, ttl: number) {
  // The empty name (or ".") asks the resolver about itself: "\0".
  let internal = dnsInternalName(name);
  if (internal.length === 0) internal = Buffer.from([0]);
  if (internal.length > MAX_DNS_NAME_BYTES) throw invalidRequest(`name: longer than ${MAX_DNS_NAME_BYTES} bytes in internal form`);
  let current = resolver;
  for (let hops = ttl; ; hops--) {
    const query: TupleItem[] = [
      { type: 'slice', cell: beginCell().storeBuffer(internal).endCell() },
      { type: 'int', value: 0n },
    ];
    const resolverAccount = await accountIn(client, current, block);
    // A resolver that is not there (e.g. the item of a name nobody registered): the name does not resolve.
    if (resolverAccount.status !== 'active') throw new V2Error(404, `DNS resolver ${current.toRawString()} is ${resolverAccount.status}: the name does not resolve`);
    const res = await runGetMethodOn(client, tvm, resolverAccount, 'dnsresolve', query);
    // What a contract's get-method does is the contract's answer, not a failure of Atlas: a contract
    // without dnsresolve is not a resolver (409, as getTokenData for a non-token); a resolver that fails
    // on the name does not resolve it (404).
    if (res.exitCode === EXIT_NO_METHOD) throw new V2Error(409, `${current.toRawString()} is not a DNS resolver (it has no dnsresolve get-method)`);
    if (res.exitCode !== 0 && res.exitCode !== 1) {
      throw new V2Error(404, `dnsresolve on ${current.toRawString()} failed with exit code ${res.exitCode}: the name does not resolve`);
    }
    const [consumed, answer] = res.stack;
    if (consumed?.type !== 'int' || consumed.value % 8n !== 0n || consumed.value > BigInt(internal.length * 8)) {
      throw new V2Error(409, `${current.toRawString()} is not a DNS resolver (its dnsresolve answered something else)`);
    }
    const cell = answer && (answer.type === 'cell' || answer.type === 'slice') ? answer.cell : null;
    if (consumed.value === BigInt(internal.length * 8) || consumed.value === 0n) {
      if (!cell) return { '@type': 'dns.resolved', entries: [] };
      const records = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), cell);
      return { '@type': 'dns.resolved', entries: [...records].map(([category, r]) => entry(name, category, parseDnsRecord(r))) };
    }
    if (!cell) return { '@type': 'dns.resolved', entries: [] };
    const next = parseDnsRecord(cell);
    if (next.type !== 'next_resolver' || hops <= 0) {
      return { '@type': 'dns.resolved', entries: [entry(name, dnsCategory('dns_next_resolver'), next)] };
    }
    internal = internal.subarray(Number(consumed.value / 8n));
    current = next.address;
  }
}

