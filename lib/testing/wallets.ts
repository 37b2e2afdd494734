// Tests' handle on a genesis v4r2 wallet of a test chain: its keys from genesis.json and its current
// seqno read from the chain, ready for signedTransfer (lib/devnet/test-support.ts).
import { Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { TestWallet } from './devnet';
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
