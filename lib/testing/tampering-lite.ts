/**
 * A tampering liteserver for LITE_VERIFY tests: it answers what an honest lite_api handler (the devnet's)
 * answers, over real TL bytes, except where `tamper` changes the decoded answer (then encoded again).
 *
 *   const lying = tamperingHandler(createDevnetLiteHandler(chain), (kind, a) =>
 *     kind === 'liteServer.getAccountState' && (a.state as Buffer).length > 0 ? { ...a, state: richerAccount(a.state as Buffer) } : undefined);
 */
import { beginCell, Cell, loadAccount, storeAccount } from '@ton/core';
import { decodeLiteAnswer, decodeLiteQuery, encodeLiteAnswer, type LiteQueryHandler } from '../lite/tl/codec';

/** A changed answer, or undefined to pass the honest one on. */
export type Tamper = (kind: string, answer: Record<string, unknown>) => Record<string, unknown> | undefined;

export function tamperingHandler(honest: LiteQueryHandler, tamper: Tamper): LiteQueryHandler {
  return async (query) => {
    const answer = await honest(query);
    const kind = decodeLiteQuery(query).fn.kind as Parameters<typeof decodeLiteAnswer>[0];
    let decoded: Record<string, unknown>;
    try {
      decoded = decodeLiteAnswer(kind, answer) as unknown as Record<string, unknown>;
    } catch {
      return answer; // a liteServer.error: passed on
    }
    const changed = tamper(kind, decoded);
    return changed ? encodeLiteAnswer(kind, changed as never) : answer;
  };
}

/** The same Account cell (a getAccountState `state`) with one nanoton more. */
export function richerAccount(stateBoc: Buffer): Buffer {
  const slice = Cell.fromBoc(stateBoc)[0].beginParse();
  slice.loadBit();
  const acc = loadAccount(slice);
  acc.storage.balance.coins += 1n;
  return beginCell().storeBit(1).store(storeAccount(acc)).endCell().toBoc();
}

/** Every account state answered one nanoton richer (states of existing accounts only). */
export const richerBalances: Tamper = (kind, a) =>
  kind === 'liteServer.getAccountState' && (a.state as Buffer).length > 0 ? { ...a, state: richerAccount(a.state as Buffer) } : undefined;
