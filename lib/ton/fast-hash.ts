/**
 * @ton/core computes every cell hash with @ton/crypto's sha256_sync, which runs jsSHA over a hex
 * string: most of the cost of building or parsing a cell. The devnet builds and parses cells all
 * day (blocks, states, Merkle updates, the sandbox's BoCs), so it points sha256_sync at Node's
 * native SHA-256, and so does the indexer (every cell of a downloaded block is hashed as it is
 * loaded). Same function, same bytes (a unit test compares them); only faster (2-3x for cell
 * construction), and the representation of an ordinary cell is built in one buffer instead of
 * through @ton/core's level masks and a buffer per part. @ton/core reads both functions through
 * their modules' exports objects at every call, so replacing the exports is enough. When the module is not reachable this way (a bundler
 * inlined its own copy), nothing is patched and everything still works, just slower.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { CellType, type BitString, type Cell } from '@ton/core';
import { writePaddedBits } from './fast-padded-bits';

let installed: boolean | undefined;

// crypto.hash (Node >= 20.12) hashes in one call, without a Hash object per cell.
const oneShot = (crypto as { hash?: (alg: string, data: Buffer, enc: 'buffer') => Buffer }).hash;

function nativeSha256(source: Buffer | string): Buffer {
  const bytes = typeof source === 'string' ? Buffer.from(source, 'utf-8') : source;
  return oneShot ? oneShot('sha256', bytes, 'buffer') : crypto.createHash('sha256').update(bytes).digest();
}

interface Wonders {
  mask: unknown;
  hashes: Buffer[];
  depths: number[];
}
type WonderCalculator = (type: CellType, bits: BitString, refs: Cell[]) => Wonders;

/**
 * @ton/core's wonderCalculator for the cells nearly every cell is — ordinary, with no pruned branch
 * below (level 0) — in one buffer and one hash: d1 d2, the padded bits, the refs' depths, the refs'
 * hashes (the representation of TON's DataCell). Every other cell goes to @ton/core's own.
 */
function ordinaryWonders(original: WonderCalculator, levelZero: unknown): WonderCalculator {
  return (type, bits, refs) => {
    if (type !== CellType.Ordinary) return original(type, bits, refs);
    for (const r of refs) if (r.mask.value !== 0) return original(type, bits, refs);
    const length = bits.length;
    const bytes = (length + 7) >> 3;
    const repr = Buffer.allocUnsafe(2 + bytes + 34 * refs.length);
    repr[0] = refs.length;
    repr[1] = bytes + (length >> 3);
    writePaddedBits(bits, repr, 2);
    let p = 2 + bytes;
    let depth = 0;
    for (const r of refs) {
      const d = r.depth(0);
      if (d >= depth) depth = d + 1;
      repr[p++] = d >> 8;
      repr[p++] = d & 0xff;
    }
    for (const r of refs) {
      r.hash(0).copy(repr, p);
      p += 32;
    }
    const hash = nativeSha256(repr);
    return { mask: levelZero, hashes: [hash, hash, hash, hash], depths: [depth, depth, depth, depth] };
  };
}

/** Installs the native sha256_sync (and the one-buffer hash of ordinary cells) once; returns whether it is in effect. */
export function installFastCellHash(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  try {
    const require = createRequire(import.meta.url);
    const mod = require('@ton/crypto/dist/primitives/sha256') as { sha256_sync?: unknown };
    const probe = Buffer.from('atlas cell hash');
    if (typeof mod.sha256_sync === 'function' && (mod.sha256_sync as (s: Buffer) => Buffer)(probe).equals(nativeSha256(probe))) {
      mod.sha256_sync = nativeSha256;
      installed = true;
      const wonders = require('@ton/core/dist/boc/cell/wonderCalculator') as { wonderCalculator?: unknown };
      const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as { LevelMask: new (mask: number) => unknown };
      if (typeof wonders.wonderCalculator === 'function') {
        wonders.wonderCalculator = ordinaryWonders(wonders.wonderCalculator as WonderCalculator, Object.freeze(new LevelMask(0)));
      }
    }
  } catch {
    // not reachable: @ton/core's own hashing stays
  }
  return installed;
}
