// getTokenData (api-v2.md §3.5): probe the contract's TEP-74 / TEP-62 get-methods in toncenter's order
// (jetton master → jetton wallet → NFT collection → NFT item), verify wallets against their master and
// items against their collection, and shape the answer as the C++ service does. Undefined when the
// contract is none of them (the route answers 409).
import { Address, beginCell, Cell, Dictionary, type TupleItem } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';
import type { TvmPool } from '../../tvm/pool';
import { friendly } from '../../ton/address';
import { dnsCategoryName, parseDnsRecord, type DnsRecord } from '../../ton/dns';
import { parseTokenContent } from '../../ton/token-content';
import { readJettonData, readWalletData, stackAddress, stackCell, stackInt } from '../../ton/jetton-getters';
import type { AccountAt } from '../../chain/account-state';
import { tryGetMethod } from '../../chain/get-method';

const userFriendly = (a: Address) => friendly(a, { bounceable: true, urlSafe: true });

const int = stackInt;
const cell = stackCell;
const address = stackAddress;

const addressArg = (a: Address): TupleItem => ({ type: 'slice', cell: beginCell().storeAddress(a).endCell() });

/** The stack of a get-method, or undefined when it fails or its stack does not parse. */
async function probe<T>(run: () => Promise<TupleItem[] | undefined>, read: (s: TupleItem[]) => Promise<T | undefined> | T | undefined) {
  const stack = await run();
  if (!stack) return undefined;
  try {
    return await read(stack);
  } catch {
    return undefined;
  }
}

/** A DNS record as getTokenData shows it (`@type` dns_*, addresses as addr_std with hex). */
function dnsRecordJson(r: DnsRecord): unknown {
  const addrStd = (a: Address) => ({ '@type': 'addr_std', workchain_id: a.workChain, address: a.hash.toString('hex') });
  switch (r.type) {
    case 'smc_address':
      return { '@type': 'dns_smc_address', smc_addr: addrStd(r.address) };
    case 'next_resolver':
      return { '@type': 'dns_next_resolver', resolver: addrStd(r.address) };
    case 'adnl_address':
      return { '@type': 'dns_adnl_address', adnl_addr: r.adnl.toString('hex') };
    case 'storage_address':
      return { '@type': 'dns_storage_address', bag_id: r.bagId.toString('hex') };
    case 'unknown':
      return { '@type': 'dns_unknown', bytes: r.cell.toBoc().toString('base64') };
  }
}

export async function tokenData(client: LiteClient, tvm: TvmPool, account: AccountAt, shownAddress: string): Promise<unknown> {
  const block = account.block;
  const target = account.address;
  const get = (a: AccountAt, method: string, stack: TupleItem[] = []) => () => tryGetMethod(client, tvm, block, a, method, stack);

  const [master, wallet, collection, item] = await Promise.all([
    probe(get(account, 'get_jetton_data'), (s) => {
      const d = readJettonData(s);
      return {
        '@type': 'ext.tokens.jettonMasterData',
        address: shownAddress,
        contract_type: 'jetton_master',
        total_supply: d.totalSupply.toString(),
        mintable: d.mintable,
        ...(d.admin ? { admin_address: userFriendly(d.admin) } : {}),
        jetton_content: parseTokenContent(d.content),
        jetton_wallet_code: d.walletCode.toBoc().toString('base64'),
      };
    }),
    probe(get(account, 'get_wallet_data'), async (s) => {
      const { balance, owner, jetton, walletCode } = readWalletData(s);
      const expected = await tryGetMethod(client, tvm, block, jetton, 'get_wallet_address', [addressArg(owner)]);
      if (!expected || !address(expected[0])?.equals(target)) return undefined;
      const claimed = await tryGetMethod(client, tvm, block, account, 'is_claimed');
      return {
        '@type': 'ext.tokens.jettonWalletData',
        address: shownAddress,
        contract_type: 'jetton_wallet',
        balance: balance.toString(),
        owner: userFriendly(owner),
        jetton: userFriendly(jetton),
        ...(claimed?.[0]?.type === 'int' ? { mintless_is_claimed: claimed[0].value !== 0n } : {}),
        jetton_wallet_code: walletCode.toBoc().toString('base64'),
      };
    }),
    probe(get(account, 'get_collection_data'), (s) => {
      const owner = address(s[2]);
      return {
        '@type': 'ext.tokens.nftCollectionData',
        address: shownAddress,
        contract_type: 'nft_collection',
        next_item_index: int(s[0]).toString(),
        ...(owner ? { owner_address: userFriendly(owner) } : {}),
        collection_content: parseTokenContent(cell(s[1])),
      };
    }),
    probe(get(account, 'get_nft_data'), async (s) => {
      const index = int(s[1]);
      const collectionAddress = address(s[2]);
      const owner = address(s[3]);
      const individual = s[4]?.type === 'null' ? null : cell(s[4]);
      let content: Cell | null = individual;
      if (collectionAddress) {
        const expected = await tryGetMethod(client, tvm, block, collectionAddress, 'get_nft_address_by_index', [{ type: 'int', value: index }]);
        if (!expected || !address(expected[0])?.equals(target)) return undefined;
        if (individual) {
          const full = await tryGetMethod(client, tvm, block, collectionAddress, 'get_nft_content', [
            { type: 'int', value: index },
            { type: 'cell', cell: individual },
          ]);
          if (!full) return undefined;
          content = cell(full[0]);
        }
      }
      return {
        '@type': 'ext.tokens.nftItemData',
        address: shownAddress,
        contract_type: 'nft_item',
        init: int(s[0]) !== 0n,
        index: index.toString(),
        ...(collectionAddress ? { collection_address: userFriendly(collectionAddress) } : {}),
        ...(owner ? { owner_address: userFriendly(owner) } : {}),
        content: (await dnsContent(client, tvm, account)) ?? (content ? parseTokenContent(content) : {}),
      };
    }),
  ]);
  return master ?? wallet ?? collection ?? item;
}

/** A TON DNS item (it answers `dnsresolve`): its domain and every record it holds. */
async function dnsContent(client: LiteClient, tvm: TvmPool, item: AccountAt) {
  const block = item.block;
  const self = { type: 'slice' as const, cell: beginCell().storeUint(0, 8).endCell() };
  const resolved = await tryGetMethod(client, tvm, block, item, 'dnsresolve', [self, { type: 'int', value: 0n }]);
  if (!resolved) return undefined;
  const domain = await tryGetMethod(client, tvm, block, item, 'get_domain');
  const label = domain?.[0] && domain[0].type !== 'null' ? cell(domain[0]).beginParse() : null;
  const data: Record<string, unknown> = {};
  const records = resolved[1];
  if (records && records.type !== 'null') {
    const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), cell(records));
    for (const [category, record] of dict) data[dnsCategoryName(category)] = dnsRecordJson(parseDnsRecord(record));
  }
  return { domain: label ? `${label.loadBuffer(Math.floor(label.remainingBits / 8)).toString('utf8')}.ton` : '', data };
}
