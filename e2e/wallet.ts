// A wallet of this e2e run: the devnet's background traffic sends from every genesis wallet, so a genesis
// wallet's seqno can move under a spec. A genesis wallet only funds a fresh v4 wallet (retried until the
// transfer lands); the spec then signs with the fresh one alone.
import { randomBytes } from 'node:crypto';
import { Address, beginCell, external, SendMode, storeMessage, toNano, internal, type Cell, type MessageRelaxed, type StateInit } from '@ton/core';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { expect, type APIRequestContext } from '@playwright/test';
import { genesisAccount } from './genesis';

/** The genesis v4r2 wallet that funds the specs' own wallets. */
const FUNDER = 'wallet_v4r2';

/** A wallet's seqno as v2 reads it live (undefined while it is not deployed). */
export async function walletSeqno(request: APIRequestContext, address: Address): Promise<number | undefined> {
  const res = await request.get('/api/v2/getWalletInformation', { params: { address: address.toString() } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: { seqno?: number } }).result.seqno;
}

export const externalBoc = (to: Address, body: Cell, init?: StateInit) => beginCell().store(storeMessage(external({ to, body, init }))).endCell().toBoc().toString('base64');

export async function sendBoc(request: APIRequestContext, boc: string) {
  const res = await request.post('/api/v2/sendBoc', { data: { boc } });
  return { status: res.status(), text: await res.text() };
}

export class E2eWallet {
  readonly keys: KeyPair = keyPairFromSeed(randomBytes(32));
  readonly contract = WalletContractV4.create({ workchain: 0, publicKey: this.keys.publicKey });

  get address(): Address {
    return this.contract.address;
  }

  /** Its next seqno, read live (0 before its first message deploys it). */
  async seqno(request: APIRequestContext): Promise<number> {
    return (await walletSeqno(request, this.address)) ?? 0;
  }

  /** A signed external carrying `messages` with this seqno (and the wallet's StateInit on the first). */
  external(seqno: number, messages: MessageRelaxed[]): string {
    const body = this.contract.createTransfer({ seqno, secretKey: this.keys.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS, messages });
    return externalBoc(this.address, body, seqno === 0 ? this.contract.init : undefined);
  }

  /** Funds it with `value` from the genesis funder, retried while background traffic takes the funder's seqno. */
  async fund(request: APIRequestContext, value = toNano('1')): Promise<void> {
    const balance = async () => {
      const res = await request.get('/api/v2/getAddressBalance', { params: { address: this.address.toString() } });
      return BigInt(((await res.json()) as { result: string }).result);
    };
    await sendFromGenesisV4(request, FUNDER, [internal({ to: this.address, value, bounce: false })], async () => (await balance()) > 0n);
  }
}

/**
 * Sends `messages` from the genesis v4r2 wallet `name` until `landed()` says they did: background traffic
 * sends from the same wallet, so a seqno read a moment ago may be taken (exit code 33), or taken in the
 * block after the message was accepted; either way it is signed again with the seqno read anew.
 */
export async function sendFromGenesisV4(request: APIRequestContext, name: string, messages: MessageRelaxed[], landed: () => Promise<boolean>): Promise<void> {
  const g = genesisAccount(name);
  const secretKey = Buffer.from(g.secret_key_hex!, 'hex');
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: secretKey.subarray(32) });
  expect(wallet.address.equals(Address.parse(g.address))).toBe(true);
  for (let attempt = 0; attempt < 10; attempt++) {
    const body = wallet.createTransfer({
      seqno: (await walletSeqno(request, wallet.address))!,
      secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      messages,
    });
    const sent = await sendBoc(request, externalBoc(wallet.address, body));
    if (sent.status !== 200) {
      expect(sent.text).toMatch(/exit code 33/);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      await expect.poll(landed, { timeout: 15_000 }).toBe(true);
      return;
    } catch {
      // Accepted, then lost its seqno to background traffic in the block: send again.
    }
  }
  throw new Error(`could not send from ${name}`);
}
