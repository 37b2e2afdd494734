/**
 * The local devnet: a chain (lib/devnet/chain.ts) with its genesis, block producer, optional
 * traffic, and the lite_api served in-process (LiteEngine) and over ADNL TCP on 127.0.0.1.
 *
 *   const devnet = await startDevnet({ dataDir, blockMs: 2000, tps: 2, traffic: true, adnlPort: 46732 });
 *   const client = new LiteClient({ engine: devnet.engine });
 *
 * Files live in `$dataDir/devnet/` (see chain-files.ts): a restart with the same directory
 * continues the same chain. One process at a time: a directory another live process holds is
 * refused with DevnetLockedError (dir-lock.ts). A new devnet runs the genesis scenario before its first block; with a
 * seed, the genesis runs at a fixed time (SEEDED_GENESIS_TIME) so that the zero state, which records
 * when accounts last paid storage, is the same wherever and whenever it is created.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LiteEngine } from 'ton-lite-client';
import { DevnetChain, DevnetIdentityError, type ChainLogger } from './chain';
import { writeFileAtomic, type ZeroStateId } from './chain-files';
import { createTrafficGenerator, runGenesis, writeGenesisFile, type GenesisAccount } from './genesis';
import { createDevnetLiteHandler } from './lite-handler';
import { BlockProducer, type ProducerStatus } from './producer';
import type { ShardSchedule } from './shard-config';
import { globalConfigFor, startAdnlServer, stringifyGlobalConfig, type AdnlServer } from './transport/adnl-server';
import { InProcessLiteEngine } from './transport/in-process-engine';
import type { LiteQueryHandler } from '../lite/tl/codec';

export { DevnetChain, DevnetIdentityError } from './chain';
export { DevnetLockedError } from './dir-lock';
export type { SealedRound, BlockMeta, ChainLogger } from './chain';
export { createDevnetLiteHandler } from './lite-handler';
export type { ShardSchedule } from './shard-config';

/** gen_utime of a seeded devnet's zero state and the time its genesis transactions run at (2024-01-01). */
export const SEEDED_GENESIS_TIME = 1_704_067_200;
export const DEVNET_HOST = '127.0.0.1';

export interface StartDevnetOptions {
  /** $ATLAS_DATA_DIR; the devnet lives in its `devnet/` subdirectory. */
  dataDir: string;
  /** Seed of a new devnet; an existing devnet must have been created with it. */
  seed?: string;
  /** Round interval (DEVNET_BLOCK_MS). 0 = no timer (tests call sealNow()). */
  blockMs: number;
  /** Traffic messages per second (DEVNET_TPS). */
  tps: number;
  /** Run the traffic generator (DEVNET_TRAFFIC). */
  traffic: boolean;
  /** ADNL TCP port on 127.0.0.1 (DEVNET_ADNL_PORT); 0 picks a free one. */
  adnlPort: number;
  /** Basechain shards of a new devnet (DEVNET_SHARDS: 1, 2, 4 or 8); an existing one must have as many. Default: its own / 1. */
  shards?: number;
  /** DEVNET_SHARD_SCHEDULE: split and merge on a cycle. Default: its own / off. */
  shardSchedule?: ShardSchedule;
  /** When given, the devnet must have this masterchain zero state (what an index was built from). */
  expectZeroState?: { rootHash: Buffer };
  /** Rounds of states kept for queries at older blocks (default 1000). */
  stateWindow?: number;
  log?: ChainLogger;
}

/** The devnet as /api/health shows it. */
export interface DevnetStatus {
  state: 'ok' | 'degraded';
  reason?: string;
  /** The block producer (absent when blocks are sealed on demand: DEVNET_BLOCK_MS=0 in tests). */
  producer?: ProducerStatus;
  /**
   * The emulator: whether it runs on its larger stack (lib/tvm/emulator.ts; false only if the sandbox's
   * build changed shape), emulators replaced after a trap, and the last trap.
   */
  emulator: { roomyStack: boolean; replaced: number; lastFailure?: { at: string; reason: string } };
}

export interface Devnet {
  /** In-process LiteEngine (no sockets) for an unmodified ton-lite-client LiteClient. */
  engine: LiteEngine;
  /** The lite_api handler behind both transports. */
  handler: LiteQueryHandler;
  adnl: { host: string; port: number; publicKey: Buffer };
  /** TON global config (config.global) listing the ADNL server: $dataDir/devnet/global-config.json. */
  globalConfigPath: string;
  /** Genesis accounts (names, addresses, wallet keys): $dataDir/devnet/genesis.json. */
  genesisPath: string;
  genesisAccounts: GenesisAccount[];
  /** Masterchain zero state: the devnet's identity. */
  zeroState: ZeroStateId;
  seed: string;
  chain: DevnetChain;
  /** Seals a round now (a block of every basechain shard, then the masterchain block). */
  sealNow(): Promise<void>;
  /** As of `now` (default the present). */
  status(now?: number): DevnetStatus;
  close(): Promise<void>;
}

/** ed25519 seed of the ADNL server key: derived from the devnet seed, so the key survives restarts. */
export function adnlSeedOf(seed: string): Buffer {
  return createHash('sha256').update(`atlas-devnet:${seed}:adnl`).digest();
}

export async function startDevnet(opts: StartDevnetOptions): Promise<Devnet> {
  const dir = path.join(opts.dataDir, 'devnet');
  const log = opts.log;
  const chain = await DevnetChain.open({ dir, seed: opts.seed, shards: opts.shards, shardSchedule: opts.shardSchedule, stateWindow: opts.stateWindow, log });
  const genesisPath = path.join(dir, 'genesis.json');
  let producer: BlockProducer | undefined;
  let adnl: AdnlServer | undefined;
  try {
    let genesisAccounts: GenesisAccount[];
    if (chain.needsGenesis) {
      chain.blockchain.now = chain.seeded ? SEEDED_GENESIS_TIME : Math.floor(Date.now() / 1000);
      try {
        genesisAccounts = await runGenesis(chain, { seed: chain.seed });
        await chain.sealZeroState();
      } finally {
        chain.blockchain.now = undefined;
      }
      await writeGenesisFile(genesisPath, genesisAccounts);
      await chain.seal();
      log?.info({ dir, seed: chain.seeded ? chain.seed : undefined, accounts: genesisAccounts.length }, 'devnet created');
    } else {
      genesisAccounts = fs.existsSync(genesisPath) ? (JSON.parse(fs.readFileSync(genesisPath, 'utf8')) as GenesisAccount[]) : [];
    }
    const zeroState = chain.identity!.zeroState.masterchain;
    if (opts.expectZeroState && !opts.expectZeroState.rootHash.equals(zeroState.rootHash)) {
      throw new DevnetIdentityError(
        `the devnet in ${dir} (zero state ${zeroState.rootHash.toString('hex')}) is not the chain the index was built from ` +
          `(zero state ${opts.expectZeroState.rootHash.toString('hex')}); reset the index or point ATLAS_DATA_DIR at that devnet`,
      );
    }

    const handler = createDevnetLiteHandler(chain);
    adnl = await startAdnlServer({ host: DEVNET_HOST, port: opts.adnlPort, seed: adnlSeedOf(chain.seed), handler, logger: log });
    const globalConfigPath = path.join(dir, 'global-config.json');
    writeFileAtomic(
      globalConfigPath,
      stringifyGlobalConfig(globalConfigFor({ host: DEVNET_HOST, port: adnl.port, publicKey: adnl.publicKey, zeroState })) + '\n',
    );
    const engine = new InProcessLiteEngine(handler);

    const traffic =
      opts.traffic && opts.tps > 0 && genesisAccounts.length > 0
        ? createTrafficGenerator(chain, genesisAccounts, { seed: chain.seed, tps: opts.tps })
        : undefined;
    if (opts.blockMs > 0) {
      producer = new BlockProducer(chain, { blockMs: opts.blockMs, traffic, log });
      producer.start();
    }
    const server = adnl;
    let closing: Promise<void> | undefined;
    return {
      engine,
      handler,
      adnl: { host: DEVNET_HOST, port: server.port, publicKey: server.publicKey },
      globalConfigPath,
      genesisPath,
      genesisAccounts,
      zeroState,
      seed: chain.seed,
      chain,
      sealNow: async () => {
        await chain.seal();
      },
      status: (now = Date.now()) => {
        const p = producer?.status(now);
        const { replaced, lastFailure, roomyStack } = chain.blockchain.capturing;
        return {
          state: p?.state ?? 'ok',
          ...(p?.reason && { reason: `block producer: ${p.reason}` }),
          ...(p && { producer: p }),
          emulator: { roomyStack, replaced, ...(lastFailure && { lastFailure }) },
        };
      },
      close: () => {
        closing ??= (async () => {
          await producer?.stop();
          engine.close();
          await server.close();
          await chain.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    await producer?.stop();
    await adnl?.close();
    await chain.close();
    throw e;
  }
}
