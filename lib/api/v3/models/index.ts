// Response models of the v3 routes, one file per entity (like ../queries), in toncenter's field order
// (ton-index-go index/models, Go struct order = JSON key order). The mappers build objects in exactly
// this order (PostgreSQL jsonb does not keep key order, so nothing is passed through as stored); tests
// check every answer against these schemas, key order included. The same schemas become components of
// /api/v3/openapi.json. `.optional()` = Go omitempty (key absent when null); `.nullable()` = key present
// with null. This index holds only the named list below (the OpenAPI components, in their published
// order); code imports a model from its entity's file.
import { AccountBalance, AccountBalances, AccountStateFull, AccountStatesResponse, WalletState, WalletStatesResponse } from './accounts';
import { Action, ActionsResponse } from './actions';
import { Block, BlockId, BlocksResponse, MasterchainInfo } from './blocks';
import { AddressBook, AddressBookEntry, Metadata, MetadataEntry, RequestError, TokenInfo } from './common';
import { DnsRecord, DnsRecordsResponse } from './dns';
import { JettonBurn, JettonBurnsResponse, JettonMaster, JettonMastersResponse, JettonTransfer, JettonTransfersResponse, JettonWallet, JettonWalletsResponse } from './jettons';
import { EstimateFeeResponse, Fee, RunGetMethodResponse, SentMessage, V2AddressInformation, V2WalletInformation } from './live';
import { DecodeResponse, Message, MessageContent, MessagesResponse } from './messages';
import { Multisig, MultisigOrder, MultisigOrderAction, MultisigOrdersResponse, MultisigWalletsResponse } from './multisig';
import { NftCollection, NftCollectionsResponse, NftItem, NftItemsResponse, NftSale, NftSalesResponse, NftTransfer, NftTransfersResponse } from './nfts';
import { TokenHit, TokenSearchResponse } from './search';
import { BalanceChanges, EmulateResponse, EventsResponse, PendingTracesResponse, RejectedMessage, Trace, TraceInfo, TraceNode, TracesResponse } from './traces';
import { AccountState, PendingTransactionsResponse, Transaction, TransactionDescr, TransactionsResponse } from './transactions';
import { VestingInfo, VestingResponse } from './vesting';

/** Named schemas: the components of the OpenAPI document. */
export const MODELS = {
  BlockId,
  Block,
  AccountState,
  MessageContent,
  Message,
  TransactionDescr,
  Transaction,
  AddressBookEntry,
  AddressBook,
  TokenInfo,
  MetadataEntry,
  Metadata,
  AccountStateFull,
  WalletState,
  AccountBalance,
  MasterchainInfo,
  BlocksResponse,
  TransactionsResponse,
  MessagesResponse,
  AccountStatesResponse,
  WalletStatesResponse,
  AccountBalances,
  RequestError,
  V2AddressInformation,
  V2WalletInformation,
  RunGetMethodResponse,
  Fee,
  EstimateFeeResponse,
  SentMessage,
  DecodeResponse,
  Action,
  TraceNode,
  TraceInfo,
  Trace,
  TracesResponse,
  EventsResponse,
  ActionsResponse,
  RejectedMessage,
  PendingTracesResponse,
  EmulateResponse,
  PendingTransactionsResponse,
  BalanceChanges,
  JettonMaster,
  JettonWallet,
  JettonTransfer,
  JettonBurn,
  JettonMastersResponse,
  JettonWalletsResponse,
  JettonTransfersResponse,
  JettonBurnsResponse,
  NftCollection,
  NftItem,
  NftTransfer,
  NftSale,
  DnsRecord,
  NftCollectionsResponse,
  NftItemsResponse,
  NftTransfersResponse,
  NftSalesResponse,
  DnsRecordsResponse,
  VestingInfo,
  VestingResponse,
  MultisigOrderAction,
  MultisigOrder,
  Multisig,
  MultisigWalletsResponse,
  MultisigOrdersResponse,
  TokenHit,
  TokenSearchResponse,
} as const;
