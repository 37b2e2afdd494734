// The TVM the v2 methods run contracts with (@ton/sandbox's executor, the emulator the chain itself
// uses), and the configuration it needs, read once per masterchain block.
import { Executor } from '@ton/sandbox';
import type { LiteClient } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema';
import { configRootFromProof } from '../../ton/config-proof';

let executor: Promise<Executor> | undefined;

/** One executor per process (it is a WebAssembly instance; creating one takes ~200 ms). */
export function tvmExecutor(): Promise<Executor> {
  executor ??= Executor.create();
  executor.catch(() => {
    executor = undefined;
  });
  return executor;
}

// The config of the last few masterchain blocks asked about, as the executor takes it (base64 BoC).
const CONFIGS_KEPT = 4;
const configs = new Map<string, Promise<string>>();

/** The configuration dictionary at masterchain block `block`, as a base64 BoC. */
export function configAt(client: LiteClient, block: tonNode_blockIdExt): Promise<string> {
  const key = block.rootHash.toString('hex');
  let config = configs.get(key);
  if (!config) {
    config = client.engine
      .query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: block })
      .then((res) => configRootFromProof(res.configProof).toBoc().toString('base64'));
    config.catch(() => configs.delete(key));
    configs.set(key, config);
    if (configs.size > CONFIGS_KEPT) configs.delete(configs.keys().next().value!);
  }
  return config;
}
