/**
 * @ton/core computes every cell hash with @ton/crypto's sha256_sync, which runs jsSHA over a hex
 * string: most of the cost of building or parsing a cell. The devnet builds and parses cells all
 * day (blocks, states, Merkle updates, the sandbox's BoCs), so it points sha256_sync at Node's
 * native SHA-256, and so does the indexer (every cell of a downloaded block is hashed as it is
 * loaded). Same function, same bytes (a unit test compares them); only faster (2-3x for cell
 * construction). @ton/core reads the function through the module's exports object at every
 * call, so replacing the export is enough. When the module is not reachable this way (a bundler
 * inlined its own copy), nothing is patched and everything still works, just slower.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

let installed: boolean | undefined;

function nativeSha256(source: Buffer | string): Buffer {
  return createHash('sha256')
    .update(typeof source === 'string' ? Buffer.from(source, 'utf-8') : source)
    .digest();
}

/** Installs the native sha256_sync once; returns whether it is in effect. */
export function installFastCellHash(): boolean {
  if (installed !== undefined) return installed;
  try {
    const require = createRequire(import.meta.url);
    const mod = require('@ton/crypto/dist/primitives/sha256') as { sha256_sync?: unknown };
    const probe = Buffer.from('atlas cell hash');
    if (typeof mod.sha256_sync !== 'function') {
      installed = false;
    } else {
      const original = mod.sha256_sync as (s: Buffer | string) => Buffer;
      if (!original(probe).equals(nativeSha256(probe))) {
        installed = false;
      } else {
        mod.sha256_sync = nativeSha256;
        installed = true;
      }
    }
  } catch {
    installed = false;
  }
  return installed;
}
