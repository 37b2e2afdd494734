/** lite_api group: the configuration at a masterchain block, and libraries by hash. */
import { Dictionary } from '@ton/core';
import { serializeBoc, shardStateConfigProof } from '../../ton';
import { LiteErrorCodes, LiteServerError, type LiteMethods, type tonNode_blockIdExt } from '../../lite/tl/codec';
import { MASTERCHAIN } from '../state';
import { tlId, type LiteContext } from './context';

/** Libraries per getLibraries call (the node's limit). */
export const MAX_LIBRARIES = 16;

export function configMethods(ctx: LiteContext) {
  const { chain } = ctx;

  const configInfo = (mode: number, id: tonNode_blockIdExt) => {
    const m = ctx.resolve(id);
    if (m.workchain !== MASTERCHAIN) {
      throw new LiteServerError(LiteErrorCodes.error, 'configuration parameters can be loaded with respect to a masterchain block only');
    }
    const state = ctx.stateOf(m);
    return {
      kind: 'liteServer.configInfo' as const,
      mode: mode & 0xffff,
      id: tlId(m),
      stateProof: ctx.headerProofBoc(m),
      configProof: serializeBoc(shardStateConfigProof(state)),
    };
  };

  return {
    'liteServer.getConfigAll': (req: { mode: number; id: tonNode_blockIdExt }) => configInfo(req.mode, req.id),
    'liteServer.getConfigParams': (req: { mode: number; id: tonNode_blockIdExt }) => configInfo(req.mode, req.id),
    'liteServer.getLibraries': (req: { libraryList: Buffer[] }) => {
      const libs = chain.blockchain.libs;
      const dict = libs
        ? Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), libs)
        : Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
      const result = [];
      const seen = new Set<string>();
      for (const hash of req.libraryList.slice(0, MAX_LIBRARIES)) {
        const key = hash.toString('hex');
        if (seen.has(key)) continue;
        seen.add(key);
        const lib = dict.get(hash);
        if (lib) result.push({ kind: 'liteServer.libraryEntry' as const, hash, data: serializeBoc(lib) });
      }
      return { kind: 'liteServer.libraryResult' as const, result };
    },
  } satisfies LiteMethods;
}
