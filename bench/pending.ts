// Pending-trace emulation (lib/pending): a 3-hop jetton transfer (alice's wallet → her jetton wallet →
// bob's jetton wallet → bob's notification and alice's excess) emulated against the devnet's latest
// state and classified, as a send through sendBoc does it. The message is never sent, so every run meets
// the same state. Emulator workers warm, the block's config read once (as in a running process).
import { Cell } from '@ton/core';
import { emulateTrace } from '../lib/pending/emulate';
import { startTestChain } from '../lib/testing/chain';
import { messageBoc } from '../lib/testing/devnet';
import { genesisJettonTransfer, genesisWallet } from '../lib/testing/wallets';
import { latencyRows, sample, type BenchResult } from './support';

const N = 200;

export async function benchPending(): Promise<BenchResult[]> {
  const chain = await startTestChain({ seed: 'atlas-bench-pending', rounds: 1, index: true });
  try {
    const alice = await genesisWallet(chain, 'alice');
    const msg = await genesisJettonTransfer(chain, alice, { to: 'bob', amount: 1000n, comment: 'bench' });
    const external = Cell.fromBoc(messageBoc(msg))[0]!;
    const first = await chain.pending!.entryOf(external);
    const types = (first.actions ?? []).map((a) => a.type).join(', ');
    if (first.rejected || first.transactions.length < 4) throw new Error(`bench trace is not a jetton transfer: ${first.rejected ?? first.transactions.length + ' transactions'}`);
    const note = `${first.transactions.length} transactions, actions: ${types}; target p50 ≤ 50 ms`;
    const full = await sample(N, () => chain.pending!.entryOf(external));
    const emulation = await sample(N, () => emulateTrace(chain.lite, chain.tvm, external));
    return [...latencyRows('pending jetton transfer (emulate + classify)', full, note), ...latencyRows('pending jetton transfer (emulation only)', emulation)];
  } finally {
    await chain.close();
  }
}
