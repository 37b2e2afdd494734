// Tests' handle on a genesis v4r2 wallet of a test chain: its keys from genesis.json and its current
// seqno read from the chain, ready for signedTransfer (lib/testing/devnet.ts).
import { Address, toNano, type Message } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { textCommentBody } from '../devnet/contracts/common';
import { jettonTransferBody } from '../devnet/contracts/jetton';
import { canRunCode } from '../devnet/genesis/driver';
import { genesisWalletOf } from '../devnet/genesis/traffic';
import { WalletHandle } from '../devnet/genesis/wallet-handle';
import { signedTransfer, type TestWallet } from './devnet';
import type { TestChain } from './chain';

export async function genesisWallet(chain: TestChain, name: string): Promise<TestWallet> {
  const a = chain.account(name);
  if (a.kind !== 'wallet_v4r2' || !a.secret_key_hex) throw new Error(`${name} is a ${a.kind}, not a v4r2 wallet with a key`);
  const secretKey = Buffer.from(a.secret_key_hex, 'hex');
  const keys = { secretKey, publicKey: secretKey.subarray(32) };
  const address = Address.parse(a.address);
  const contract = WalletContractV4.create({ workchain: address.workChain, publicKey: keys.publicKey });
  if (!contract.address.equals(address)) throw new Error(`${name}: the key does not give the genesis address`);
  const seqno = await chain.lite.open(contract).getSeqno();
  return { name, keys, address, seqno, kind: 'v4', contract };
}

/**
 * A signed 3-hop jetton transfer: `from` asks its genesis jetton wallet (`<name>_jetton`) to send `amount`
 * to the genesis wallet `to` with a comment; the excess comes back to `from`.
 */
export function genesisJettonTransfer(chain: TestChain, from: TestWallet, args: { to: string; amount: bigint; comment: string; queryId?: bigint }): Promise<Message> {
  const body = jettonTransferBody({
    amount: args.amount,
    destination: Address.parse(chain.account(args.to).address),
    responseDestination: from.address,
    forwardTonAmount: toNano('0.01'),
    forwardPayload: textCommentBody(args.comment),
    queryId: args.queryId,
  });
  return signedTransfer(from, [{ to: Address.parse(chain.account(`${from.name}_jetton`).address), value: toNano('0.2'), bounce: true, body }]);
}

/**
 * Handles on every genesis wallet the chain can run (any version, the highload wallet too; not the
 * faucet), by name, their seqnos read from the chain: what the traffic generator sends from.
 */
export async function genesisWalletHandles(chain: TestChain): Promise<Map<string, WalletHandle>> {
  const bc = chain.devnet.chain.blockchain;
  const out = new Map<string, WalletHandle>();
  for (const a of chain.devnet.genesisAccounts) {
    if (!a.secret_key_hex || a.kind === 'faucet') continue;
    const secret = Buffer.from(a.secret_key_hex, 'hex');
    const wallet = genesisWalletOf(a, secret);
    if (!wallet || !canRunCode(chain.devnet.chain, wallet.init.code)) continue;
    const h = new WalletHandle(a.name, wallet, secret);
    await h.resync(bc);
    if (h.deployed) out.set(a.name, h);
  }
  return out;
}
