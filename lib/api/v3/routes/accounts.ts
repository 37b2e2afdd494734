// Account routes (api-v3.md §2.1–§2.2): topAccountsByBalance, addressBook, metadata, accountStates,
// walletStates. States come from latest_account_states (the newest state of each account).
import { z } from 'zod';
import type { LatestAccountState } from '../../../db/generated/client';
import { amountMap, b64, dec, hex, optB64 } from '../encode';
import { unprocessable } from '../errors';
import { bocCell, detectInterfaces } from '../../../ton/interfaces';
import { AccountBalances, type AccountStateFullJson, AccountStatesResponse, type WalletStateJson, WalletStatesResponse } from '../models/accounts';
import { AddressBook, Metadata } from '../models/common';
import { limitParams, p, page } from '../params';
import { findLatestStates, findTopBalances } from '../queries/account-states';
import { defineRoute } from '../route';
import { addressBookByInput, metadataByInput, methodsByCodeHash, sideMaps } from '../queries/side-maps';
import { parseWalletData, WALLET_CODE_HASHES } from '../../../ton/wallets';
import type { V3Context } from '../context';

export const topAccountsByBalance = defineRoute({
  path: 'topAccountsByBalance',
  tag: 'accounts',
  summary: 'Accounts with the largest balances',
  description: 'A bare array, balance descending (ties by account).',
  query: z.object({ limit: limitParams().limit, offset: limitParams().offset }),
  response: AccountBalances,
  errors: { 422: 'limit is not allowed' },
  async run(q, ctx) {
    const rows = await findTopBalances(ctx.sql, page(q));
    return rows.map((r) => ({ account: r.account, balance: dec(r.balance) }));
  },
});

const addressStrings = () => p.strings('Addresses in any form, as given (not split on commas).');

export const addressBook = defineRoute({
  path: 'addressBook',
  tag: 'accounts',
  summary: 'User-friendly form and interfaces of addresses',
  description:
    'Keyed by the input strings exactly as given. user_friendly is non-bounceable for accounts without code or with a ' +
    'standard wallet code, bounceable otherwise; an unparseable input gets {user_friendly: null, domain: null, interfaces: []}.',
  query: z.object({ address: addressStrings() }),
  response: AddressBook,
  errors: { 422: 'at least 1 address required' },
  async run(q, ctx) {
    if (!q.address?.length) throw unprocessable('at least 1 address required');
    return addressBookByInput(ctx, q.address);
  },
});

export const metadata = defineRoute({
  path: 'metadata',
  tag: 'accounts',
  summary: 'Token metadata of addresses',
  description:
    'Keyed by raw address; only token contracts (jetton masters and wallets, NFT items and collections) appear. ' +
    'Jetton wallets and masters come from the indexed jetton tables (off-chain metadata is not fetched); other token ' +
      'contracts are {is_indexed: false, token_info: []}.',
  query: z.object({ address: addressStrings() }),
  response: Metadata,
  errors: { 422: 'at least 1 address required' },
  async run(q, ctx) {
    if (!q.address?.length) throw unprocessable('at least 1 address required');
    return metadataByInput(ctx, q.address);
  },
});

const stateQuery = (withBoc: boolean) =>
  z.object({
    address: p.addresses('Accounts (required; at most 1000 states are returned).'),
    ...(withBoc ? { include_boc: p.bool('Include code_boc and data_boc.', true) } : {}),
    code_hash: p.hashes('Only accounts with one of these code hashes.'),
  });

/**
 * Latest states of the requested accounts, in the order requested (toncenter leaves the order to the
 * database); unknown accounts are absent.
 * toncenter answers every failure of accountStates and walletStates with 422, database errors included;
 * Atlas keeps 422 for bad requests and answers a failure of its own with 500, so clients retry only that.
 */
async function latestStates(ctx: V3Context, q: { address?: string[]; code_hash?: Buffer[] }): Promise<LatestAccountState[]> {
  if (!q.address?.length) throw unprocessable('address of account is required');
  const rows = await findLatestStates(ctx.sql, { accounts: q.address, codeHashes: q.code_hash });
  const position = new Map(q.address.map((a, i) => [a, i] as const).reverse());
  return rows.sort((a, b) => position.get(a.account)! - position.get(b.account)!);
}

export const accountStates = defineRoute({
  path: 'accountStates',
  tag: 'accounts',
  summary: 'Latest states of accounts',
  query: stateQuery(true),
  response: AccountStatesResponse,
  errors: { 422: 'address of account is required' },
  async run(q, ctx) {
    const rows = await latestStates(ctx, q);
    const includeBoc = q.include_boc ?? true;
    const methods = await methodsByCodeHash(ctx.sql, rows.map((r) => r.codeHash));
    const accounts = rows.map((r): AccountStateFullJson => {
      const codeHash = optB64(r.codeHash);
      const contractMethods = r.codeHash ? (methods.get(hex(r.codeHash)) ?? null) : null;
      return {
        address: r.account,
        account_state_hash: b64(r.accountStateHash),
        balance: dec(r.balance),
        extra_currencies: amountMap(r.balanceExtraCurrencies),
        status: r.accountStatus,
        ...(r.frozenHash ? { frozen_hash: b64(r.frozenHash) } : {}),
        last_transaction_hash: b64(r.lastTransHash),
        last_transaction_lt: String(r.lastTransLt),
        ...(r.dataHash ? { data_hash: b64(r.dataHash) } : {}),
        ...(codeHash ? { code_hash: codeHash } : {}),
        ...(includeBoc && r.dataBoc ? { data_boc: b64(r.dataBoc) } : {}),
        ...(includeBoc && r.codeBoc ? { code_boc: b64(r.codeBoc) } : {}),
        contract_methods: contractMethods,
        interfaces: detectInterfaces(codeHash, contractMethods),
      };
    });
    const maps = await sideMaps(ctx, accounts.map((a) => a.address));
    return { accounts, ...maps };
  },
});

export const walletStates = defineRoute({
  path: 'walletStates',
  tag: 'accounts',
  summary: 'Wallet information of accounts',
  description:
    'Latest states with the fields of the 11 standard wallet codes (v1r1 … v5r1) read from their data: seqno, ' +
    'wallet_id (v3 and later), is_signature_allowed (v5). Other accounts have is_wallet false.',
  query: stateQuery(false),
  response: WalletStatesResponse,
  errors: { 422: 'address of account is required' },
  async run(q, ctx) {
    const rows = await latestStates(ctx, q);
    const wallets = rows.map((r): WalletStateJson => {
      const codeHash = optB64(r.codeHash);
      const kind = codeHash ? WALLET_CODE_HASHES[codeHash] : undefined;
      const data = kind ? bocCell(r.dataBoc) : null;
      const fields = kind && data ? parseWalletData(kind.layout, data) : null;
      const extra = amountMap(r.balanceExtraCurrencies);
      return {
        address: r.account,
        is_wallet: kind !== undefined,
        ...(kind ? { wallet_type: kind.type } : {}),
        ...(fields ? { seqno: fields.seqno } : {}),
        ...(fields?.walletId !== undefined ? { wallet_id: fields.walletId } : {}),
        balance: dec(r.balance),
        ...(extra && Object.keys(extra).length ? { extra_currencies: extra } : {}),
        ...(fields?.isSignatureAllowed !== undefined ? { is_signature_allowed: fields.isSignatureAllowed } : {}),
        status: r.accountStatus,
        ...(codeHash ? { code_hash: codeHash } : {}),
        last_transaction_hash: b64(r.lastTransHash),
        last_transaction_lt: String(r.lastTransLt),
      };
    });
    const maps = await sideMaps(ctx, wallets.map((w) => w.address));
    return { wallets, ...maps };
  },
});
