/** Genesis steps: the `.ton` DNS collection and names, a renewal, and the twins of mainnet cases. */
import { toNano, type Cell } from '@ton/core';
import { onchainContent } from '../contracts/common';
import { DNS_CATEGORY, dnsChangeRecordBody, dnsCollectionInit, dnsItemAddress, dnsRecordSet, dnsRegisterBody } from '../contracts/dns';
import type { GenesisContext } from './context';
import { seedBytes } from './keys';
import { GENESIS_QUERY_IDS, GENESIS_STORAGE_DOMAIN } from './scenario';

const domainContent = (domain: string): Cell => onchainContent({ name: domain, description: `${domain} on the Atlas devnet`, domain });

/** The .ton collection and two names; alice points her name's wallet record at her v5r1 wallet. */
export async function tonDns(g: GenesisContext): Promise<void> {
  const { driver, seed, add, W, admin } = g;
  const dnsCode = await g.code.dns;
  const dns = dnsCollectionInit(dnsCode, {
    admin: admin.address,
    content: onchainContent({ name: 'TON DNS (devnet)', description: '.ton domains of the Atlas devnet', image: 'https://atlas.devnet/static/dns.png' }),
  });
  g.remember('dnsCollection', dns.address);
  add('dns_collection', 'dns_collection', dns.address);
  const aliceTon = g.remember('aliceTon', dnsItemAddress(dnsCode, dns.address, 'alice'));
  const atlasTon = dnsItemAddress(dnsCode, dns.address, 'atlas');
  add('alice.ton', 'dns_item', aliceTon);
  add('atlas.ton', 'dns_item', atlasTon);
  await admin.send(driver, [
    {
      to: dns.address,
      value: toNano('0.3'),
      bounce: false,
      init: dns.init,
      body: dnsRegisterBody({
        label: 'alice',
        owner: W('alice').address,
        content: domainContent('alice.ton'),
        records: dnsRecordSet([
          { category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: W('alice').address } },
          { category: DNS_CATEGORY.site, record: { type: 'adnl_address', adnl: seedBytes(seed, 'adnl:alice') } },
          { category: DNS_CATEGORY.nextResolver, record: { type: 'next_resolver', address: aliceTon } },
        ]),
      }),
    },
  ]);
  await admin.send(driver, [
    {
      to: dns.address,
      value: toNano('0.3'),
      bounce: true,
      body: dnsRegisterBody({
        label: 'atlas',
        owner: admin.address,
        content: domainContent('atlas.ton'),
        records: dnsRecordSet([
          { category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: admin.address } },
          { category: DNS_CATEGORY.site, record: { type: 'storage_address', bagId: seedBytes(seed, 'bag:atlas') } },
          { category: DNS_CATEGORY.nextResolver, record: { type: 'next_resolver', address: atlasTon } },
        ]),
        queryId: 1n,
      }),
    },
  ]);
  // alice points her name's wallet record at her v5r1 wallet.
  await W('alice').send(driver, [
    {
      to: aliceTon,
      value: toNano('0.05'),
      bounce: true,
      body: dnsChangeRecordBody({ category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: W('wallet_v5r1').address } }),
    },
  ]);
}

/**
 * DNS renewal: the owner's change_dns_record with key 0 and no value (what dns.ton.org's "renew" sends:
 * it changes no record, the item only sees its owner).
 */
export async function dnsRenewal(g: GenesisContext): Promise<void> {
  await g.W('alice').send(g.driver, [
    { to: g.made('aliceTon'), value: toNano('0.05'), bounce: true, body: dnsChangeRecordBody({ category: 0n, record: null, queryId: GENESIS_QUERY_IDS.dnsRenew }) },
  ]);
}

/**
 * Twins of what v2 clients meet on mainnet (the last steps, so every earlier address and result stays):
 * - wallet_v5beta deployed as mainnet's v5 beta wallets are, its code the library cell that references
 *   the v5 beta code in the masterchain's libraries. That library is not on the devnet (no package ships
 *   its code), so the wallet cannot run: it is deployed by an internal message carrying its state init,
 *   which the account keeps although the compute phase fails (exit 9), as a deployment does on TON. It
 *   holds v5 beta's code and data, which is what getWalletInformation reads (seqno 0, its wallet id).
 * - `files.ton`, bob's, whose one record is a `storage` one (getTokenData's `storage` entry).
 */
export async function mainnetTwins(g: GenesisContext): Promise<void> {
  const { driver, seed, add, W, admin, faucet } = g;
  const v5beta = W('wallet_v5beta');
  await faucet.send(driver, [{ to: v5beta.address, value: toNano('0.1'), bounce: false, init: v5beta.wallet.init }]);
  const dns = g.made('dnsCollection');
  const domain = `${GENESIS_STORAGE_DOMAIN}.ton`;
  const item = dnsItemAddress(await g.code.dns, dns, GENESIS_STORAGE_DOMAIN);
  add(domain, 'dns_item', item);
  await admin.send(driver, [
    {
      to: dns,
      value: toNano('0.3'),
      bounce: true,
      body: dnsRegisterBody({
        label: GENESIS_STORAGE_DOMAIN,
        owner: W('bob').address,
        content: domainContent(domain),
        records: dnsRecordSet([{ category: DNS_CATEGORY.storage, record: { type: 'storage_address', bagId: seedBytes(seed, 'bag:files') } }]),
        queryId: 2n,
      }),
    },
  ]);
}
