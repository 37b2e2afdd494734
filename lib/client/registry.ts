// The one description of every API resource the explorer reads: which API (v2 envelope or v3 bare
// JSON), its path, its parameters and the type of its answer. Fetchers, query keys and the server's
// prefetch all derive from this table, so a page can only read what API users can read too.
import type { z } from 'zod';
import type { Health } from '@/lib/health';
import type * as accounts from '@/lib/api/v3/models/accounts';
import type * as actions from '@/lib/api/v3/models/actions';
import type * as blocks from '@/lib/api/v3/models/blocks';
import type * as common from '@/lib/api/v3/models/common';
import type * as dns from '@/lib/api/v3/models/dns';
import type * as jettons from '@/lib/api/v3/models/jettons';
import type * as messages from '@/lib/api/v3/models/messages';
import type * as multisig from '@/lib/api/v3/models/multisig';
import type * as nfts from '@/lib/api/v3/models/nfts';
import type * as search from '@/lib/api/v3/models/search';
import type * as traces from '@/lib/api/v3/models/traces';
import type * as transactions from '@/lib/api/v3/models/transactions';
import type * as vesting from '@/lib/api/v3/models/vesting';

export type Scalar = string | number | boolean;
export type Params = object;

export interface Resource<P extends Params, R> {
  /** Path on the app's origin. */
  url: string;
  /** v2 wraps answers in {ok, result} / {ok:false, error, code}; v3 and health answer bare JSON. */
  envelope: 'v2' | 'bare';
  method: 'GET' | 'POST';
  /**
   * The route may mark its answers as checked by proof (X-Atlas-Verified, lib/api/proof-mark.ts): the
   * fetcher answers {result, verified} instead of the bare result, so the page can say which data it verified.
   */
  proof?: true;
  /** Phantom fields carrying the parameter and answer types (never set at run time). */
  readonly _params?: P;
  readonly _response?: R;
}

const v3 = <P extends Params, R>(path: string): Resource<P, R> => ({ url: `/api/v3/${path}`, envelope: 'bare', method: 'GET' });
const v3Post = <P extends Params, R>(path: string): Resource<P, R> => ({ url: `/api/v3/${path}`, envelope: 'bare', method: 'POST' });
const v2 = <P extends Params, R>(path: string, method: 'GET' | 'POST' = 'GET'): Resource<P, R> => ({ url: `/api/v2/${path}`, envelope: 'v2', method });
/** A v2 read whose answer may be verified by proof: its response type is Checked<R>. */
const v2Checked = <P extends Params, R>(path: string): Resource<P, Checked<R>> => ({ url: `/api/v2/${path}`, envelope: 'v2', method: 'GET', proof: true });

/** An answer with whether the server checked it by proof (LITE_VERIFY=on and every lite read behind it checked). */
export interface Checked<R> {
  result: R;
  verified: boolean;
}

type Paging = {
  limit?: number;
  offset?: number;
  sort?: 'asc' | 'desc';
}
type LtRange = {
  start_lt?: string;
  end_lt?: string;
}

export type TransactionsParams = Paging &
  LtRange & {
    account?: string;
    hash?: string;
    lt?: string;
    mc_seqno?: number;
    workchain?: number;
    shard?: string;
    seqno?: number;
    start_utime?: number;
    end_utime?: number;
  };

// The v3 answers, derived from the server's response models (lib/api/v3/models): a model change that the
// client does not follow breaks the build here instead of a page at run time.
type Out<S extends z.ZodType> = z.output<S>;
export type BlocksResponse = Out<typeof blocks.BlocksResponse>;
export type TransactionsResponse = Out<typeof transactions.TransactionsResponse>;
export type MessagesResponse = Out<typeof messages.MessagesResponse>;
export type JettonMastersResponse = Out<typeof jettons.JettonMastersResponse>;
export type JettonWalletsResponse = Out<typeof jettons.JettonWalletsResponse>;
export type JettonTransfersResponse = Out<typeof jettons.JettonTransfersResponse>;
export type TracesResponse = Out<typeof traces.TracesResponse>;
export type PendingTracesResponse = Out<typeof traces.PendingTracesResponse>;
export type ActionsResponse = Out<typeof actions.ActionsResponse>;
export type NftCollectionsResponse = Out<typeof nfts.NftCollectionsResponse>;
export type NftItemsResponse = Out<typeof nfts.NftItemsResponse>;
export type NftTransfersResponse = Out<typeof nfts.NftTransfersResponse>;
export type NftSalesResponse = Out<typeof nfts.NftSalesResponse>;
export type DnsRecordsResponse = Out<typeof dns.DnsRecordsResponse>;
export type MultisigWalletsResponse = Out<typeof multisig.MultisigWalletsResponse>;
export type MultisigOrdersResponse = Out<typeof multisig.MultisigOrdersResponse>;
export type VestingResponse = Out<typeof vesting.VestingResponse>;

/** /api/v2/detectAddress's result. */
export interface DetectedAddress {
  raw_form: string;
  bounceable: { b64: string; b64url: string };
  non_bounceable: { b64: string; b64url: string };
  given_type: 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';
  test_only: boolean;
}

/** /api/v2/getWalletInformation's result: any account (wallet false for other contracts), read live. */
export interface WalletInformationJson {
  wallet: boolean;
  balance: string;
  account_state: 'active' | 'uninitialized' | 'frozen';
  wallet_type?: string;
  seqno?: number;
  wallet_id?: number;
  last_transaction_id: { lt: string; hash: string };
}

/** A legacy runGetMethod stack entry: ["num", "0x1f"], ["cell", {bytes}], ["tuple", {...}] … */
export type StackEntry = [string, unknown];

export interface RunGetMethodResult {
  gas_used: number;
  stack: StackEntry[];
  exit_code: number;
}

/** /api/health's answer: the server's own type (lib/health.ts), so the two cannot drift apart. */
export type HealthJson = Health;

export const resources = {
  masterchainInfo: v3<Record<string, never>, Out<typeof blocks.MasterchainInfo>>('masterchainInfo'),
  blocks: v3<
    Paging &
      LtRange & { workchain?: number; shard?: string; seqno?: number; mc_seqno?: number; root_hash?: string; start_utime?: number; end_utime?: number },
    BlocksResponse
  >('blocks'),
  masterchainBlockShardState: v3<{ seqno: number }, BlocksResponse>('masterchainBlockShardState'),
  masterchainBlockShards: v3<Paging & { seqno: number }, BlocksResponse>('masterchainBlockShards'),
  transactions: v3<TransactionsParams, TransactionsResponse>('transactions'),
  transactionsByMessage: v3<Paging & { msg_hash: string; direction?: 'in' | 'out' }, TransactionsResponse>('transactionsByMessage'),
  messages: v3<Paging & { msg_hash?: string }, MessagesResponse>('messages'),
  accountStates: v3<{ address: string; include_boc?: boolean }, Out<typeof accounts.AccountStatesResponse>>('accountStates'),
  walletStates: v3<{ address: string }, Out<typeof accounts.WalletStatesResponse>>('walletStates'),
  topAccountsByBalance: v3<{ limit?: number; offset?: number }, Out<typeof accounts.AccountBalances>>('topAccountsByBalance'),
  addressBook: v3<{ address: string[] }, Out<typeof common.AddressBook>>('addressBook'),
  metadata: v3<{ address: string[] }, Out<typeof common.Metadata>>('metadata'),
  traces: v3<Paging & { trace_id?: string; tx_hash?: string; msg_hash?: string; account?: string; include_actions?: boolean }, TracesResponse>('traces'),
  actions: v3<Paging & LtRange & { account?: string; trace_id?: string; action_type?: string[] }, ActionsResponse>('actions'),
  pendingTraces: v3<{ account?: string; ext_msg_hash?: string[] }, PendingTracesResponse>('pendingTraces'),
  pendingActions: v3<{ account?: string; ext_msg_hash?: string[] }, ActionsResponse>('pendingActions'),
  emulate: v3Post<{ boc: string }, Out<typeof traces.EmulateResponse>>('emulate'),
  jettonMasters: v3<{ address?: string[]; admin_address?: string[]; limit?: number; offset?: number }, JettonMastersResponse>('jetton/masters'),
  jettonWallets: v3<
    { address?: string[]; owner_address?: string[]; jetton_address?: string[]; exclude_zero_balance?: boolean; limit?: number; offset?: number; sort?: 'asc' | 'desc' },
    JettonWalletsResponse
  >('jetton/wallets'),
  jettonTransfers: v3<
    Paging & LtRange & { owner_address?: string[]; jetton_wallet?: string[]; jetton_master?: string; direction?: 'in' | 'out' },
    JettonTransfersResponse
  >('jetton/transfers'),
  nftCollections: v3<{ collection_address?: string[]; owner_address?: string[]; limit?: number; offset?: number }, NftCollectionsResponse>('nft/collections'),
  nftItems: v3<
    {
      address?: string[];
      owner_address?: string[];
      collection_address?: string[];
      index?: string[];
      include_on_sale?: boolean;
      sort_by_last_transaction_lt?: boolean;
      limit?: number;
      offset?: number;
    },
    NftItemsResponse
  >('nft/items'),
  nftTransfers: v3<
    Paging & LtRange & { owner_address?: string[]; item_address?: string[]; collection_address?: string; direction?: 'in' | 'out' | 'both' },
    NftTransfersResponse
  >('nft/transfers'),
  nftSales: v3<{ address: string[] }, NftSalesResponse>('nft/sales'),
  dnsRecords: v3<{ wallet?: string; domain?: string; limit?: number; offset?: number }, DnsRecordsResponse>('dns/records'),
  vesting: v3<
    { contract_address?: string[]; wallet_address?: string[]; check_whitelist?: boolean; limit?: number; offset?: number },
    VestingResponse
  >('vesting'),
  multisigWallets: v3<
    { address?: string[]; wallet_address?: string[]; include_orders?: boolean; limit?: number; offset?: number; sort?: 'asc' | 'desc' },
    MultisigWalletsResponse
  >('multisig/wallets'),
  multisigOrders: v3<
    { address?: string[]; multisig_address?: string[]; parse_actions?: boolean; limit?: number; offset?: number; sort?: 'asc' | 'desc' },
    MultisigOrdersResponse
  >('multisig/orders'),
  tokenSearch: v3<{ q: string; limit?: number }, Out<typeof search.TokenSearchResponse>>('search'),
  detectAddress: v2<{ address: string }, DetectedAddress>('detectAddress'),
  /** The account at the chain head, read live through the lite client (no code or data: the page shows the index's). */
  liveAccount: v2Checked<{ address: string }, WalletInformationJson>('getWalletInformation'),
  runGetMethod: v2<{ address: string; method: string; stack: StackEntry[] }, RunGetMethodResult>('runGetMethod', 'POST'),
  health: { url: '/api/health', envelope: 'bare', method: 'GET' } as Resource<Record<string, never>, HealthJson>,
} as const;

export type ResourceName = keyof typeof resources;
export type ParamsOf<N extends ResourceName> = NonNullable<(typeof resources)[N]['_params']>;
export type ResponseOf<N extends ResourceName> = NonNullable<(typeof resources)[N]['_response']>;
