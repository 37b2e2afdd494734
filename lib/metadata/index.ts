// Off-chain token metadata: the queue the indexer fills and the fetcher that works through it. The
// process that indexes runs the fetcher when METADATA_FETCH=on; off (the default, and offline) the URIs
// stay pending and readers show the URI itself.
import type { Config } from '../config';
import type { PrismaClient } from '../db/generated/client';
import type { Logger } from '../log';
import { MetadataFetcher } from './queue';
import { publicTargets } from './target-policy';

export { enqueueMetadata, metadataFor, type MetadataRow } from './queue';

/** Starts the fetcher when the configuration asks for it. */
export function startMetadataFetcher(cfg: Pick<Config, 'metadata'>, prisma: PrismaClient, log: Logger): MetadataFetcher | undefined {
  if (!cfg.metadata.fetch) return undefined;
  const fetcher = new MetadataFetcher({ prisma, policy: publicTargets(), ipfsGateway: cfg.metadata.ipfsGateway, log });
  fetcher.start();
  log.info({ ipfsGateway: cfg.metadata.ipfsGateway }, 'metadata fetcher started');
  return fetcher;
}
