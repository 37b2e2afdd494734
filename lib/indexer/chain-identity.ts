// An index belongs to one chain. The zero state identifies it; a database that already indexes another
// chain is refused with a clear message instead of mixing two chains' blocks.
import type { PrismaClient } from '../db/generated/client';

export interface ChainIdentity {
  network: string;
  zeroStateRootHash: Buffer;
  zeroStateFileHash: Buffer;
}

export class ChainMismatchError extends Error {}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** Registers the chain on first use, or checks it is the one already indexed. Returns the cursor. */
export async function claimChain(prisma: PrismaClient, indexerId: string, chain: ChainIdentity): Promise<number | null> {
  const existing = await prisma.indexerState.findUnique({ where: { id: indexerId } });
  if (!existing) {
    await prisma.indexerState.create({
      data: {
        id: indexerId,
        network: chain.network,
        zeroStateRootHash: new Uint8Array(chain.zeroStateRootHash),
        zeroStateFileHash: new Uint8Array(chain.zeroStateFileHash),
      },
    });
    return null;
  }
  if (!Buffer.from(existing.zeroStateRootHash).equals(chain.zeroStateRootHash)) {
    throw new ChainMismatchError(
      `The database indexes another chain (${existing.network}, zero state ${b64(existing.zeroStateRootHash)}), ` +
        `but the chain now connected (${chain.network}) has zero state ${chain.zeroStateRootHash.toString('base64')}. ` +
        'Use a fresh database (another DATABASE_URL or ATLAS_DATA_DIR) for this chain.',
    );
  }
  return existing.lastMcSeqno;
}
