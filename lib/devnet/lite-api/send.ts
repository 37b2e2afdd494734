/** lite_api group: sendMessage, an external message checked and run as the node's liteserver would. */
import type { Cell } from '@ton/core';
import type { LiteMethods } from '../../lite/tl/codec';
import { LiteServerError } from '../../lite/tl/codec';
import { checkExternal } from '../external-check';
import { errText, type LiteContext } from './context';

/** The executor's reason for rejecting an external, with its exit code (first line of the sandbox's error). */
export function rejectionText(e: unknown): string {
  const err = e as { exitCode?: unknown; message?: unknown };
  const first = String(err?.message ?? e).split('\n')[0].replace(/^Error while executing transaction: /, '');
  return typeof err?.exitCode === 'number' ? `${first} (exit code ${err.exitCode})` : first;
}

export function sendMethods(ctx: LiteContext) {
  const { chain } = ctx;
  return {
    'liteServer.sendMessage': async (req: { body: Buffer }) => {
      let cell: Cell;
      try {
        cell = checkExternal(req.body, chain.sizeLimits());
      } catch (e) {
        throw new LiteServerError(0, `cannot apply external message to current state : failed to parse external message: ${errText(e)}`);
      }
      try {
        await chain.sendExternalBoc(cell);
      } catch (e) {
        throw new LiteServerError(0, `cannot apply external message to current state : ${rejectionText(e)}`);
      }
      return { kind: 'liteServer.sendMsgStatus' as const, status: 1 };
    },
  } satisfies LiteMethods;
}
