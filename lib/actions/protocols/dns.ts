// TEP-81 .ton names: the purchase at the end of a name's auction and the release of an expired name's
// balance (below), and a record change the owner sends to its DNS item (change_dns_record#4eb1f0f9). A
// value sets the record (change_dns), no value deletes it (delete_dns), and key 0 with no value is the
// renewal wallets send (renew_dns: the reference items renew the name on any owner's record change,
// and deleting record 0 changes nothing else). The item is known to the index as an NFT item.
import type { Cell } from '@ton/core';
import { BodyNotDecoded, OPS, readBody, readDnsRecord } from '../bodies';
import type { ActionData } from '../model';
import type { Matcher } from './matcher';

const ZERO_KEY = '0'.repeat(64);

/** toncenter's DNS value object: the record's sum type and its one filled field. */
function dnsValue(cell: Cell): ActionData {
  const v: ActionData = {
    sum_type: null,
    dns_smc_address: null,
    dns_adnl_address: null,
    dns_text: null,
    dns_next_resolver_address: null,
    dns_storage_address: null,
    flags: null,
  };
  let record: ReturnType<typeof readDnsRecord>;
  try {
    record = readDnsRecord(cell);
  } catch (e) {
    if (e instanceof BodyNotDecoded) return v; // a record type TEP-81 does not define: its key still changed
    throw e;
  }
  const f = record.fields;
  switch (record.name) {
    case 'dns_smc_address':
      return { ...v, sum_type: 'DNSSmcAddress', dns_smc_address: f.smc_addr as string | null, flags: f.flags as number | null };
    case 'dns_adnl_address':
      return { ...v, sum_type: 'DNSAdnlAddress', dns_adnl_address: f.adnl_addr as string | null, flags: f.flags as number | null };
    case 'dns_next_resolver':
      return { ...v, sum_type: 'DNSNextResolver', dns_next_resolver_address: f.resolver as string | null };
    case 'dns_storage_address':
      return { ...v, sum_type: 'DNSStorageAddress', dns_storage_address: f.bag_id as string | null };
    case 'dns_text':
      // toncenter's quirk (api-v3.md): a text value lands in dns_storage_address, dns_text stays null.
      return { ...v, sum_type: 'DNSText', dns_storage_address: f.text as string | null };
  }
  return v;
}

const change: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx' || node.opcode !== OPS.change_dns_record) return;
  const item = ctx.info(node.destination).nftItem;
  if (!item) return;
  const f = readBody(node.body(), 'change_dns_record');
  const key = f.key as string;
  const value = f.value as Cell | null;
  const fields = { source: node.source, destination: node.destination, asset: node.destination, asset_secondary: item.collection, opcode: node.opcode };
  if (value) ctx.claim('change_dns', [node], { ...fields, change_dns_data: { key, value: dnsValue(value) } }, node.failed);
  else if (key === ZERO_KEY) ctx.claim('renew_dns', [node], fields, node.failed);
  else ctx.claim('delete_dns', [node], { ...fields, delete_dns_data: { key } }, node.failed);
};

export const DNS_OP = { fillUp: 0x370fec51, releaseBalance: 0x4ed14b65 } as const;

/**
 * A .ton name bought at its auction's end: the item pays the winning bid on to the collection with a
 * fill-up (op_fill_up#370fec51 query_id), caused by the winner's first message after the end.
 */
const purchase: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const item = ctx.info(node.source).nftItem;
  const cause = node.parent;
  if (!item?.dns || !cause || cause.isTonTransfer || cause.source === null) return;
  const queryId = node.bodyAfterOp().loadUintBig(64);
  ctx.claim('dns_purchase', [node], {
    destination: cause.source,
    asset: item.collection,
    asset_secondary: node.source,
    nft_transfer_data: { nft_item_index: item.index, query_id: queryId, price: node.value, payout_amount: node.value, is_purchase: true },
  }, node.tx.aborted);
};

/** The owner of an expired .ton name releases the balance it holds (dns_balance_release#4ed14b65 query_id). */
const release: Matcher = (node, ctx) => {
  if (!node.free || node.kind !== 'tx') return;
  const item = ctx.info(node.destination).nftItem;
  if (!item?.dns) return;
  const queryId = node.bodyAfterOp().loadUintBig(64);
  ctx.claim('dns_release', [node], {
    source: node.source,
    destination: node.destination,
    asset: item.collection,
    value: node.value,
    nft_transfer_data: { nft_item_index: item.index, query_id: queryId },
  }, node.tx.aborted);
};

export const dnsMatchers = { change, purchase, release };
