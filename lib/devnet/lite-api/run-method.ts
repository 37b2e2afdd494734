/** lite_api group: runSmcMethod, a get-method run against the account state of the block asked for. */
import { Address, Cell, Dictionary, beginCell, loadAccount, parseTuple, type TupleItem } from '@ton/core';
import { isAccountNone } from '../accounts';
import { LiteErrorCodes, LiteServerError, type LiteMethods, type liteServer_accountId, type tonNode_blockIdExt } from '../../lite/tl/codec';
import { errText, idStr, tlId, type AccountAt, type AccountParts, type LiteContext } from './context';

/** Config params left out of get-method runs: validator sets and the suspended-address list. */
const GET_METHOD_CONFIG_OMITS = [32, 34, 36, 44];

function extraCurrencies(balance: { other?: Dictionary<number, bigint> | null }): Record<number, bigint> | undefined {
  if (!balance.other || balance.other.size === 0) return undefined;
  const out: Record<number, bigint> = {};
  for (const [k, v] of balance.other) out[k] = v;
  return out;
}

/** The account's state, code, data and balance, decoded once per account cell. */
function accountParts(ctx: LiteContext, at: AccountAt, address: Address, blockId: tonNode_blockIdExt): AccountParts {
  if (!at.sa || isAccountNone(at.sa.account)) {
    throw new LiteServerError(LiteErrorCodes.error, `cannot run get-method: account ${address.toRawString()} does not exist at block ${idStr(blockId)}`);
  }
  const key = at.sa.account.hash().toString('latin1');
  const hit = ctx.accountParts.get(key);
  if (hit) return hit;
  const s = at.sa.account.beginParse();
  s.loadBit();
  const acc = loadAccount(s);
  const st = acc.storage.state;
  return ctx.accountParts.set(key, {
    state: st.type,
    code: st.type === 'active' ? (st.state.code ?? undefined) : undefined,
    data: st.type === 'active' ? (st.state.data ?? undefined) : undefined,
    balance: acc.storage.balance,
  });
}

function parseParams(params: Buffer): TupleItem[] {
  if (params.length === 0) return [];
  try {
    return parseTuple(Cell.fromBoc(params)[0]);
  } catch (e) {
    throw new LiteServerError(LiteErrorCodes.protoviolation, `cannot parse get-method parameters: ${errText(e)}`);
  }
}

export function runMethodMethods(ctx: LiteContext, gasLimit: bigint) {
  const { chain } = ctx;
  let getMethodConfig: { key: string; base64: string } | undefined; // key: the sandbox's config BoC (base64)

  const configBase64 = (): string => {
    // blockchain.config decodes the whole BoC on each read: key the cache on the sandbox's string.
    const key = chain.blockchain.configBase64;
    if (getMethodConfig?.key !== key) {
      const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.blockchain.config);
      for (const k of GET_METHOD_CONFIG_OMITS) dict.delete(k);
      getMethodConfig = { key, base64: beginCell().storeDictDirect(dict).endCell().toBoc({ idx: false }).toString('base64') };
    }
    return getMethodConfig.base64;
  };

  return {
    'liteServer.runSmcMethod': async (req: { mode: number; id: tonNode_blockIdExt; account: liteServer_accountId; methodId: string; params: Buffer }) => {
      const at = ctx.accountAt(req.id, req.account);
      const address = new Address(req.account.workchain, req.account.id);
      const parts = accountParts(ctx, at, address, req.id);
      if (parts.state !== 'active') {
        throw new LiteServerError(LiteErrorCodes.error, `cannot run get-method: account ${address.toRawString()} is ${parts.state}, not active`);
      }
      const { code, data } = parts;
      if (!code || !data) throw new LiteServerError(LiteErrorCodes.error, `cannot run get-method: account ${address.toRawString()} has no code or data`);
      const stack = parseParams(req.params);
      const res = await chain.blockchain.executor.runGetMethod({
        code,
        data,
        methodId: Number(req.methodId),
        stack,
        config: configBase64(),
        verbosity: 'short',
        libs: chain.blockchain.libs,
        address,
        unixTime: at.shardBlock.genUtime,
        balance: parts.balance.coins,
        randomSeed: Buffer.alloc(32),
        gasLimit,
        debugEnabled: false,
        extraCurrency: extraCurrencies(parts.balance),
        prevBlocksInfo: undefined, // the executor adds the chain's current PREVBLOCKS
      });
      if (!res.output.success) throw new LiteServerError(LiteErrorCodes.error, `get-method failed: ${res.output.error}`);
      const mode = req.mode & 0b101;
      const p = mode & 1 ? ctx.accountProofsOf(at) : undefined;
      return {
        kind: 'liteServer.runMethodResult' as const,
        mode,
        id: tlId(at.block),
        shardblk: tlId(at.shardBlock),
        shardProof: p?.shardProof,
        proof: p?.proof,
        exitCode: res.output.vm_exit_code,
        result: mode & 4 ? Buffer.from(res.output.stack, 'base64') : undefined,
      };
    },
  } satisfies LiteMethods;
}
