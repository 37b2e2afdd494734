/** Deterministic key material of the devnet: everything derives from the genesis seed and a name. */
import { keyPairFromSeed, KeyPair, sha256_sync } from '@ton/crypto';

/** sha256(seed ‖ ":" ‖ name): 32 bytes that depend only on the seed and the name. */
export function seedBytes(seed: string, name: string): Buffer {
  return sha256_sync(Buffer.from(`${seed}:${name}`, 'utf8'));
}

/** The ed25519 key pair of a named account: keyPairFromSeed(sha256(seed ‖ ":" ‖ name)). */
export function deriveKeyPair(seed: string, name: string): KeyPair {
  return keyPairFromSeed(seedBytes(seed, name));
}

/** A small deterministic PRNG (xorshift128+ seeded from sha256) for the scenario and the traffic. */
export class SeededRandom {
  private s0: bigint;
  private s1: bigint;

  constructor(seed: string) {
    const h = sha256_sync(Buffer.from(`prng:${seed}`, 'utf8'));
    this.s0 = h.readBigUInt64LE(0) | 1n;
    this.s1 = h.readBigUInt64LE(8) | 2n;
  }

  /** A uniform 64-bit value. */
  nextU64(): bigint {
    const mask = (1n << 64n) - 1n;
    let s1 = this.s0;
    const s0 = this.s1;
    this.s0 = s0;
    s1 = (s1 ^ (s1 << 23n)) & mask;
    this.s1 = s1 ^ s0 ^ (s1 >> 17n) ^ (s0 >> 26n);
    return (this.s1 + s0) & mask;
  }

  /** A float in [0, 1). */
  next(): number {
    return Number(this.nextU64() >> 11n) / 2 ** 53;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)];
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 8) {
      const v = this.nextU64();
      for (let j = 0; j < 8 && i + j < n; j++) out[i + j] = Number((v >> BigInt(8 * j)) & 0xffn);
    }
    return out;
  }
}
