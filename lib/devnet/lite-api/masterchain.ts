/** lite_api group: the masterchain's head, the time and the server's version. */
import type { LiteMethods } from '../../lite/tl/codec';
import { MASTERCHAIN } from '../state';
import { tlId, type LiteContext } from './context';

/** liteServer.getVersion: the node's lite server version 1.1 and capabilities 7. */
export const LITE_VERSION = 0x101;
export const LITE_CAPABILITIES = '7';

const now = () => Math.floor(Date.now() / 1000);

export function masterchainMethods(ctx: LiteContext) {
  const { chain } = ctx;
  const head = () => {
    const last = ctx.ready();
    const zero = chain.block(MASTERCHAIN, 0)!;
    return {
      last,
      stateRootHash: chain.state(MASTERCHAIN, last.seqno)!.hash(),
      init: { kind: 'tonNode.zeroStateIdExt' as const, workchain: MASTERCHAIN, rootHash: zero.rootHash, fileHash: zero.fileHash },
    };
  };
  return {
    'liteServer.getMasterchainInfo': () => {
      const { last, stateRootHash, init } = head();
      return { kind: 'liteServer.masterchainInfo' as const, last: tlId(last), stateRootHash, init };
    },
    'liteServer.getMasterchainInfoExt': () => {
      const { last, stateRootHash, init } = head();
      return {
        kind: 'liteServer.masterchainInfoExt' as const,
        mode: 0,
        version: LITE_VERSION,
        capabilities: LITE_CAPABILITIES,
        last: tlId(last),
        lastUtime: last.genUtime,
        now: now(),
        stateRootHash,
        init,
      };
    },
    'liteServer.getTime': () => ({ kind: 'liteServer.currentTime' as const, now: now() }),
    'liteServer.getVersion': () => ({
      kind: 'liteServer.version' as const,
      mode: 0,
      version: LITE_VERSION,
      capabilities: LITE_CAPABILITIES,
      now: now(),
    }),
  } satisfies LiteMethods;
}
