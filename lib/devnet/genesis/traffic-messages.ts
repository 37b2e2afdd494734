/**
 * The internal messages the traffic generator has a wallet send, one builder per sort of traffic, with
 * every choice (amounts, counterparts, comments) made by the caller: traffic.ts picks them at random,
 * the pending replay test (lib/pending/replay.test.ts) picks them to produce each action type once.
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { binaryBody } from '../contracts/common';
import { DNS_CATEGORY, dnsChangeRecordBody } from '../contracts/dns';
import { jettonBurnBody, jettonMintBody, jettonTransferBody } from '../contracts/jetton';
import { nftTransferBody } from '../contracts/nft';
import { createWallet } from '../contracts/wallets';
import { deriveKeyPair } from './keys';
import type { OutgoingMessage } from './wallet-handle';

/** `from` asks its jetton wallet `jettonWallet` to send `amount` to `to`; the excess goes back to `from`. */
export function jettonTransferMessage(a: {
  jettonWallet: Address;
  from: Address;
  to: Address;
  amount: bigint;
  forwardTonAmount: bigint;
  forwardPayload: Cell | null;
  queryId: bigint;
}): OutgoingMessage {
  return {
    to: a.jettonWallet,
    value: toNano('0.1'),
    bounce: true,
    body: jettonTransferBody({
      amount: a.amount,
      destination: a.to,
      responseDestination: a.from,
      forwardTonAmount: a.forwardTonAmount,
      forwardPayload: a.forwardPayload,
      queryId: a.queryId,
    }),
  };
}

/** The minter's admin `admin` mints `amount` to `to`. */
export function jettonMintMessage(a: { minter: Address; admin: Address; to: Address; amount: bigint; queryId: bigint }): OutgoingMessage {
  return {
    to: a.minter,
    value: toNano('0.1'),
    bounce: true,
    body: jettonMintBody({ to: a.to, amount: a.amount, tonToWallet: toNano('0.05'), minter: a.minter, responseAddress: a.admin, queryId: a.queryId }),
  };
}

/** The holder `from` burns `amount` from its jetton wallet. */
export function jettonBurnMessage(a: { jettonWallet: Address; from: Address; amount: bigint; queryId: bigint }): OutgoingMessage {
  return { to: a.jettonWallet, value: toNano('0.1'), bounce: true, body: jettonBurnBody({ amount: a.amount, responseDestination: a.from, queryId: a.queryId }) };
}

/** The owner `from` gives NFT `item` to `to`. */
export function nftTransferMessage(a: { item: Address; from: Address; to: Address; forwardAmount: bigint; forwardPayload: Cell | null }): OutgoingMessage {
  return {
    to: a.item,
    value: toNano('0.1'),
    bounce: true,
    body: nftTransferBody({ newOwner: a.to, responseDestination: a.from, forwardAmount: a.forwardAmount, forwardPayload: a.forwardPayload }),
  };
}

/** The owner of the `.ton` item points its wallet record at `target`. */
export function dnsWalletRecordMessage(a: { item: Address; target: Address }): OutgoingMessage {
  return {
    to: a.item,
    value: toNano('0.05'),
    bounce: true,
    body: dnsChangeRecordBody({ category: DNS_CATEGORY.wallet, record: { type: 'smc_address', address: a.target } }),
  };
}

/** A body of some unknown opcode (the wallet at `to` ignores it). */
export function binaryMessage(a: { to: Address; op: number; payload: Buffer }): OutgoingMessage {
  return { to: a.to, value: toNano('0.02'), bounce: true, body: binaryBody(a.op, a.payload) };
}

/** The `n`-th address of the devnet `seed` that nothing ever deploys: a bounceable message to it bounces. */
export function nowhereAddress(seed: string, n: number): Address {
  return createWallet('wallet_v4r2', deriveKeyPair(seed, `traffic:nowhere:${n}`).publicKey).address;
}

/** A bounceable transfer to an address with no contract: it bounces back. */
export function bounceMessage(a: { nowhere: Address; value: bigint; body: Cell }): OutgoingMessage {
  return { to: a.nowhere, value: a.value, bounce: true, body: a.body };
}

/** An opcode the jetton minter does not know: its compute phase aborts and the message bounces. */
export function abortMessage(a: { minter: Address; n: number }): OutgoingMessage {
  return { to: a.minter, value: toNano('0.05'), bounce: true, body: beginCell().storeUint(0x0badc0de, 32).storeUint(a.n, 64).endCell() };
}
