/**
 * A wallet the devnet controls: its contract, its secret key and the seqno the devnet tracks itself.
 * Every send goes through the ChainDriver as one signed external.
 */
import type { Blockchain } from '@ton/sandbox';
import { Address, Cell, internal, Message, MessageRelaxed, SendMode, StateInit } from '@ton/core';
import type { DevnetWallet } from '../contracts/wallets';
import { chainNow, type ChainDriver } from './driver';

export interface OutgoingMessage {
  to: Address;
  value: bigint;
  bounce?: boolean;
  body?: Cell;
  init?: StateInit;
}

export class WalletHandle {
  /** Next seqno (for the highload wallet: next query number). */
  seqno: number;
  /** Whether the wallet's code is on chain (the next external carries no state init). */
  deployed: boolean;

  constructor(
    readonly name: string,
    readonly wallet: DevnetWallet,
    readonly secretKey: Buffer,
    state: { seqno?: number; deployed?: boolean } = {},
  ) {
    this.seqno = state.seqno ?? 0;
    this.deployed = state.deployed ?? false;
  }

  get address(): Address {
    return this.wallet.address;
  }

  get isHighload(): boolean {
    return this.wallet.kind === 'highload_wallet_v3';
  }

  /** Sign `messages` into one external and deliver it; seqno advances only when the chain accepts it. */
  async send(driver: ChainDriver, messages: OutgoingMessage[], sendMode?: SendMode): Promise<void> {
    await driver.sendExternal(await this.external(messages, chainNow(driver.blockchain), sendMode));
    this.accepted();
  }

  /**
   * The signed external carrying `messages` (signed at `now`), not sent: for a caller that delivers it
   * some other way (a test posts it to the API); call accepted() once the chain took it.
   */
  external(messages: OutgoingMessage[], now: number, sendMode?: SendMode): Promise<Message> {
    const relaxed: MessageRelaxed[] = messages.map((m) =>
      internal({ to: m.to, value: m.value, bounce: m.bounce ?? false, body: m.body, init: m.init }),
    );
    return this.wallet.createExternal({ seqno: this.seqno, secretKey: this.secretKey, messages: relaxed, sendMode, now, deploy: !this.deployed });
  }

  /** The chain accepted the last external(): the next one takes the next seqno and no state init. */
  accepted(): void {
    this.seqno += 1;
    this.deployed = true;
  }

  /** Re-read the seqno from the chain (after a rejected external). The highload wallet skips ahead instead. */
  async resync(blockchain: Blockchain): Promise<void> {
    const contract = await blockchain.getContract(this.address);
    const state = contract.accountState;
    this.deployed = state?.type === 'active';
    if (state?.type !== 'active') {
      this.seqno = 0;
      return;
    }
    if (this.wallet.kind === 'wallet_v1r1') {
      // v1r1 has no get-methods; its data starts with the seqno.
      this.seqno = state.state.data ? state.state.data.beginParse().loadUint(32) : 0;
      return;
    }
    if (this.isHighload) {
      this.seqno = await firstUnprocessedHighloadQuery(blockchain, this.address, this.seqno);
      return;
    }
    const res = await blockchain.runGetMethod(this.address, 'seqno');
    this.seqno = res.stackReader.readNumber();
  }
}

/** The first query number ≥ from that a highload v3 wallet has not processed (get-method `processed?`). */
export async function firstUnprocessedHighloadQuery(blockchain: Blockchain, address: Address, from = 0): Promise<number> {
  let n = from;
  for (;;) {
    const queryId = (BigInt(Math.floor(n / 1023)) << 10n) | BigInt(n % 1023);
    const res = await blockchain.runGetMethod(address, 'processed?', [
      { type: 'int', value: queryId },
      { type: 'int', value: 0n },
    ]);
    if (res.stackReader.readBigNumber() === 0n) return n;
    n += 1;
  }
}
