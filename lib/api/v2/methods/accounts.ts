// Account routes (api-v2.md §2.2, §3.4, §3.5): the account's state at the latest masterchain block or at
// the one `seqno` names, read through the lite server.
import { beginCell } from '@ton/core';
import { z } from 'zod';
import { friendly, rawUpper, type ParsedAddress } from '../../../ton/address';
import {
  accountAddressJson,
  accountAt,
  bocBase64,
  extraCurrenciesJson,
  stateBlock,
  type AccountAt,
} from '../../../chain/account-state';
import { dnsResolve as resolveDns } from '../dns-resolve';
import { V2Error } from '../errors';
import { blockIdJson } from '../block-json';
import { defineMethod } from '../method';
import { transactionId } from '../../../chain/tx-json';
import { address, int32 } from '../params';
import { tokenData } from '../token-data';
import { parseWalletData, walletKind, type WalletFields } from '../../../ton/wallets';

const seqno = () => int32('a masterchain seqno > 0', 1n).optional().meta({ description: 'masterchain block whose state is read (default: latest)' });
const accountParams = z.object({ address: address(), seqno: seqno() });

const frozenHash = (a: AccountAt) => (a.frozenHash ? a.frozenHash.toString('base64') : '');
const lastTransaction = (a: AccountAt) => transactionId(a.lastTxLt, a.lastTxHash);

/** The request address as the C++ service echoes it: raw input → wc:HEX, friendly → url-safe with the same flags. */
function normalized(p: ParsedAddress): string {
  if (p.givenType === 'raw_form') return rawUpper(p.address);
  return friendly(p.address, { bounceable: p.givenType === 'friendly_bounceable', testOnly: p.testOnly, urlSafe: true });
}

/** A read of one account's state at `seqno` (default: the latest), answered from the lite server's state as `json` shows it. */
function accountMethod(name: string, summary: string, json: (a: AccountAt) => unknown) {
  return defineMethod({
    name,
    verbs: 'read',
    liteOnly: true,
    summary,
    params: accountParams,
    run: async (p, ctx) => json(await accountAt(await ctx.lite(), p.address.address, p.seqno)),
  });
}

export const getAddressInformation = accountMethod('getAddressInformation', 'Balance, code, data and last transaction of an account', (a) => ({
  '@type': 'raw.fullAccountState',
  balance: a.balance.toString(),
  extra_currencies: extraCurrenciesJson(a),
  code: bocBase64(a.code),
  data: bocBase64(a.data),
  last_transaction_id: lastTransaction(a),
  block_id: blockIdJson(a.block.id),
  frozen_hash: frozenHash(a),
  sync_utime: a.block.utime,
  state: a.status,
  // The C++ service's list of suspended (mainnet) addresses has no member on other networks.
  suspended: false,
}));

export const getExtendedAddressInformation = accountMethod('getExtendedAddressInformation', 'Account state with the contract recognised (wallets) as tonlib shows it', (a) => {
  const kind = walletKind(a.code);
  const f = kind?.tonlib && a.data ? parseWalletData(kind.layout, a.data) : null;
  let accountState: Record<string, unknown>;
  let revision = 0;
  if (a.status !== 'active') {
    accountState = { '@type': 'uninited.accountState', frozen_hash: frozenHash(a) };
  } else if (kind?.tonlib && f) {
    accountState = { '@type': kind.tonlib.type, wallet_id: f.walletId, seqno: f.seqno };
    revision = kind.tonlib.revision;
  } else {
    accountState = { '@type': 'raw.accountState', code: bocBase64(a.code), data: bocBase64(a.data), frozen_hash: frozenHash(a) };
  }
  return {
    '@type': 'fullAccountState',
    address: accountAddressJson(a.address),
    balance: a.balance.toString(),
    extra_currencies: extraCurrenciesJson(a),
    last_transaction_id: lastTransaction(a),
    block_id: blockIdJson(a.block.id),
    sync_utime: a.block.utime,
    account_state: accountState,
    revision,
  };
});

/** seqno, then wallet_id and is_signature_allowed where the kind has them (absent, not null, otherwise). */
function walletFieldsJson(f: WalletFields) {
  return {
    seqno: f.seqno,
    ...(f.walletId !== undefined && { wallet_id: f.walletId }),
    ...(f.isSignatureAllowed !== undefined && { is_signature_allowed: f.isSignatureAllowed }),
  };
}

export const getWalletInformation = accountMethod('getWalletInformation', 'Whether the account is a known wallet, and its seqno and wallet id', (a) => {
  const kind = a.status === 'active' ? walletKind(a.code) : undefined;
  const fields = kind && a.data ? parseWalletData(kind.layout, a.data) : null;
  return {
    '@type': 'ext.accounts.walletInformation',
    wallet: fields !== null,
    balance: a.balance.toString(),
    // As the Python service and getAddressInformation carry them (the C++ service leaves them out).
    extra_currencies: extraCurrenciesJson(a),
    account_state: a.status,
    ...(kind && fields ? { wallet_type: kind.type, ...walletFieldsJson(fields) } : {}),
    last_transaction_id: lastTransaction(a),
  };
});

export const getAddressBalance = accountMethod('getAddressBalance', 'Balance of an account in nanotons, as a string', (a) => a.balance.toString());

export const getAddressState = accountMethod('getAddressState', 'active, uninitialized or frozen', (a) => a.status);

export const getShardAccountCell = accountMethod('getShardAccountCell', "The account's ShardAccount cell (account, last transaction hash and lt) as a BoC", (a) => {
  // account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
  const cell = beginCell().storeRef(a.accountCell).storeBuffer(a.lastTxHash, 32).storeUint(a.lastTxLt, 64).endCell();
  return { '@type': 'tvm.cell', bytes: bocBase64(cell) };
});

export const getTokenData = defineMethod({
  name: 'getTokenData',
  verbs: 'read',
  summary: 'Jetton master / wallet or NFT collection / item data of a contract',
  params: accountParams,
  async run(p, ctx) {
    const client = await ctx.lite();
    const a = await accountAt(client, p.address.address, p.seqno);
    const data = a.status === 'active' ? await tokenData(client, await ctx.tvm(), a, normalized(p.address)) : undefined;
    if (!data) throw new V2Error(409, `Smart contract ${normalized(p.address)} is not Jetton or NFT`);
    return data;
  },
});

export const dnsResolve = defineMethod({
  name: 'dnsResolve',
  verbs: 'read',
  summary: 'TEP-81 DNS resolution of a name, starting at the resolver `address`',
  params: z.object({
    address: address(),
    name: z.string().default('').meta({ description: 'domain, e.g. alice.ton; relative to the resolver' }),
    category: z.string().optional().meta({ description: 'accepted for compatibility; every category is returned' }),
    ttl: int32('a recursion allowance >= 0', 0n).default(0).meta({ description: 'how many next resolvers may be followed' }),
    seqno: seqno(),
  }),
  async run(p, ctx) {
    const client = await ctx.lite();
    const block = await stateBlock(client, p.seqno);
    return resolveDns(client, await ctx.tvm(), block, p.address.address, p.name, p.ttl);
  },
});
