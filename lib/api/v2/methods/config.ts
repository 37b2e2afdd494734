// Configuration routes (api-v2.md §2.5): parameters of the masterchain state at the latest block or at
// `seqno`, and library cells by hash.
import { z } from 'zod';
import { Functions } from 'ton-lite-client/dist/schema';
import { configParamCell, configRootFromProof } from '../../../ton/config-proof';
import { stateBlock } from '../../../chain/account-state';
import { V2Error, invalidRequest } from '../errors';
import { defineMethod } from '../method';
import { hash, int32, list } from '../params';

const seqno = () => int32('a masterchain seqno > 0', 1n).optional().meta({ description: 'masterchain block whose config is read (default: latest)' });
/** Hashes per liteServer.getLibraries call (what a node answers at most). */
const LIBRARIES_PER_QUERY = 16;

const tvmCell = (bytes: Buffer) => ({ '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bytes.toString('base64') } });

export const getConfigParam = defineMethod({
  name: 'getConfigParam',
  verbs: 'read',
  summary: 'One configuration parameter as a BoC',
  params: z.object({
    param: int32('a config parameter number (≥ 0)', 0n).optional(),
    config_id: int32('a config parameter number (≥ 0)', 0n).optional().meta({ description: 'legacy name of `param`' }),
    seqno: seqno(),
  }),
  async run(p, ctx) {
    if ((p.param === undefined) === (p.config_id === undefined)) throw invalidRequest('failed to validate request: exactly one of param and config_id is required');
    const id = (p.param ?? p.config_id)!;
    const client = await ctx.lite();
    const block = await stateBlock(client, p.seqno);
    const res = await client.engine.query(Functions.liteServer_getConfigParams, { kind: 'liteServer.getConfigParams', mode: 0, id: block.id, paramList: [id] });
    const value = configParamCell(configRootFromProof(res.configProof), id);
    if (!value) throw new V2Error(404, `config parameter ${id} is not set`);
    return tvmCell(value.toBoc());
  },
});

export const getConfigAll = defineMethod({
  name: 'getConfigAll',
  verbs: 'read',
  summary: 'The whole configuration dictionary as a BoC',
  params: z.object({ seqno: seqno() }),
  async run(p, ctx) {
    const client = await ctx.lite();
    const block = await stateBlock(client, p.seqno);
    const res = await client.engine.query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: block.id });
    return tvmCell(configRootFromProof(res.configProof).toBoc());
  },
});

export const getLibraries = defineMethod({
  name: 'getLibraries',
  verbs: 'read',
  summary: 'Library cells by hash; unknown hashes are left out',
  params: z.object({ libraries: list(hash()).default([]).meta({ description: 'library cell hashes' }) }),
  async run(p, ctx) {
    const client = await ctx.lite();
    const unique = [...new Map(p.libraries.map((h) => [h.toString('hex'), h])).values()];
    const result: unknown[] = [];
    for (let i = 0; i < unique.length; i += LIBRARIES_PER_QUERY) {
      const res = await client.getLibraries(unique.slice(i, i + LIBRARIES_PER_QUERY));
      for (const e of res.result) result.push({ '@type': 'smc.libraryEntry', hash: e.hash.toString('base64'), data: e.data.toString('base64') });
    }
    return { '@type': 'smc.libraryResult', result };
  },
});
