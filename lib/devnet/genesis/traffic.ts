/**
 * Background activity for the devnet: each step() sends about `tps` signed externals from the genesis
 * wallets (TON transfers with and without comments, jetton transfers, now and then a mint by the jetton's
 * admin or a burn by a holder, NFT transfers, marketplace trades (traffic-market.ts: cards listed on
 * sales and auctions, bought, bid on, cancelled, finished), highload batches, DNS record edits, and now
 * and then a bounced or aborted message). Seqnos are tracked here; a rejected
 * external makes that wallet re-read its seqno from the chain. The timer calling step() is the producer's.
 *
 * In parts: traffic-state.ts (what the actions share: wallets, counters, cached balances and owners),
 * traffic-actions.ts (one function per action), traffic-messages.ts and traffic-market.ts (what they send).
 */
import type { ChainDriver } from './driver';
import type { GenesisAccount } from './genesis';
import { ACTIONS, market, topUpIfLow } from './traffic-actions';
import type { MarketMove } from './traffic-market';
import { TrafficState, type Action, type TrafficOptions, type TrafficStats } from './traffic-state';

export { genesisWalletOf, type TrafficOptions, type TrafficStats } from './traffic-state';

export interface TrafficGenerator {
  /** Send this step's messages; resolves to how many externals the chain accepted. */
  step(): Promise<number>;
  /** One marketplace move now (`move` if the chain allows it, else a random allowed one): which, and whether it was sent. */
  market(move?: MarketMove): Promise<{ move: MarketMove | null; sent: boolean }>;
  readonly stats: TrafficStats;
}

/** Relative weights of the actions. */
const WEIGHTS: [Action, number][] = [
  ['ton', 25],
  ['ton_comment', 25],
  ['jetton', 15],
  ['jetton_mint', 2],
  ['jetton_burn', 2],
  ['nft', 10],
  ['market', 6],
  ['highload', 8],
  ['dns', 4],
  ['binary', 5],
  ['bounce', 4],
  ['abort', 4],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((s, [, w]) => s + w, 0);

/** Steps between reads of balances and owners from the chain (and faucet top-ups). */
const REFRESH_STEPS = 30;

function chooseAction(t: TrafficState): Action {
  let x = t.rng.next() * TOTAL_WEIGHT;
  for (const [a, w] of WEIGHTS) {
    if ((x -= w) < 0) return a;
  }
  return 'ton';
}

export function createTrafficGenerator(driver: ChainDriver, accounts: GenesisAccount[], options: TrafficOptions): TrafficGenerator {
  const t = new TrafficState(driver, accounts, options);
  let ready: Promise<void> | null = null;
  let carry = 0;

  const ensureReady = async () => {
    ready ??= t.init().catch((e: unknown) => {
      ready = null;
      throw e;
    });
    await ready;
  };

  return {
    stats: t.stats,
    async market(move?: MarketMove) {
      await ensureReady();
      return market(t, move);
    },
    async step(): Promise<number> {
      await ensureReady();
      const { stats } = t;
      stats.steps += 1;
      const before = stats.sent;
      if (stats.steps % REFRESH_STEPS === 1) {
        t.forget();
        await topUpIfLow(t);
      }
      carry += Math.max(0, options.tps);
      const n = Math.floor(carry);
      carry -= n;
      for (let i = 0; i < n; i++) await ACTIONS[chooseAction(t)](t);
      return stats.sent - before;
    },
  };
}
