/** lite_api group: account states (whole or pruned) with their proofs. */
import { prunedBranch, serializeBoc } from '../../ton';
import { isAccountNone } from '../accounts';
import type { LiteMethods, liteServer_accountId, tonNode_blockIdExt } from '../../lite/tl/codec';
import { EMPTY, tlId, type LiteContext } from './context';

export function accountMethods(ctx: LiteContext) {
  return {
    'liteServer.getAccountState': (req: { id: tonNode_blockIdExt; account: liteServer_accountId }) => {
      const at = ctx.accountAt(req.id, req.account);
      const { proof, shardProof } = ctx.accountProofsOf(at);
      const account = at.sa && !isAccountNone(at.sa.account) ? at.sa.account : undefined;
      const key = account?.hash().toString('latin1') ?? '';
      const state = account ? (ctx.accountBocs.get(key) ?? ctx.accountBocs.set(key, serializeBoc(account))) : EMPTY;
      return { kind: 'liteServer.accountState' as const, id: tlId(at.block), shardblk: tlId(at.shardBlock), shardProof, proof, state };
    },
    'liteServer.getAccountStatePrunned': (req: { id: tonNode_blockIdExt; account: liteServer_accountId }) => {
      const at = ctx.accountAt(req.id, req.account);
      const { proof, shardProof } = ctx.accountProofsOf(at);
      const state = at.sa && !isAccountNone(at.sa.account) ? serializeBoc(prunedBranch(at.sa.account)) : EMPTY;
      return { kind: 'liteServer.accountState' as const, id: tlId(at.block), shardblk: tlId(at.shardBlock), shardProof, proof, state };
    },
  } satisfies LiteMethods;
}
