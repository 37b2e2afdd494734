/**
 * The devnet's validators: DEVNET_VALIDATORS ed25519 key pairs derived from the chain's seed (so the
 * seed in chain.json is all it takes to sign again after a restart; nothing secret is written beside
 * it), put into the zero state's configuration as ConfigParam 34, and used to sign every masterchain
 * block the way the node's validators do (lib/ton/validator-set.ts).
 *
 * ConfigParams 32 and 36 (mainnet's previous and next sets in the sandbox's default config) are left
 * out: the devnet's set never changes, and no block could be checked against those keys.
 */
import { createHash } from 'node:crypto';
import { Cell, beginCell } from '@ton/core';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import {
  computeValidatorSubset,
  loadCatchainConfig,
  loadConfigDict,
  loadValidatorSet,
  nodeIdShort,
  blockSignedBytes,
  storeValidatorSet,
  validatorSetHashShort,
  MASTERCHAIN_SHARD,
  type BlockSignature,
  type ValidatorDescr,
} from '../ton';
import { ed25519Sign } from './contracts/signing';

export const DEVNET_VALIDATORS = 4;
/** Each validator's weight (equal stakes). */
const WEIGHT = 1n << 60n;
/** The set's utime_until: far enough to never expire (uint32 max). */
const FOREVER = 0xffffffff;

/** Validator i's key pair: keyPairFromSeed(sha256("atlas-devnet:<seed>:validator:<i>")). */
export function devnetValidatorKeys(seed: string): KeyPair[] {
  return Array.from({ length: DEVNET_VALIDATORS }, (_, i) =>
    keyPairFromSeed(createHash('sha256').update(`atlas-devnet:${seed}:validator:${i}`).digest()),
  );
}

/** The sandbox's configuration with the devnet's validator set as ConfigParam 34 (since `utimeSince`). */
export function withDevnetValidators(config: Cell, keys: KeyPair[], utimeSince: number): Cell {
  const dict = loadConfigDict(config);
  dict.set(
    34,
    storeValidatorSet({
      utimeSince,
      utimeUntil: FOREVER,
      main: keys.length,
      list: keys.map((k, i) => ({ publicKey: k.publicKey, weight: WEIGHT, adnlAddr: createHash('sha256').update(k.publicKey).update(`adnl:${i}`).digest() })),
    }),
  );
  dict.delete(32);
  dict.delete(36);
  return beginCell().storeDictDirect(dict).endCell();
}

/** What the chain needs of its validators: the subsets' hashes (block headers) and masterchain signatures. */
export class DevnetValidators {
  /** gen_validator_list_hash_short of masterchain and whole-basechain blocks (catchain seqno 0). */
  readonly mcListHashShort: number;
  readonly shardListHashShort: number;
  readonly #signers: { id: Buffer; secretKey: Buffer }[];
  readonly #shardHashes = new Map<string, number>();

  private constructor(
    mc: ValidatorDescr[],
    shard: ValidatorDescr[],
    keys: Map<string, KeyPair>,
    private readonly vset: ReturnType<typeof loadValidatorSet>,
    private readonly cc: ReturnType<typeof loadCatchainConfig>,
  ) {
    this.mcListHashShort = validatorSetHashShort(0, mc);
    this.shardListHashShort = validatorSetHashShort(0, shard);
    this.#signers = mc.flatMap((v) => {
      const k = keys.get(v.publicKey.toString('hex'));
      return k ? [{ id: nodeIdShort(v.publicKey), secretKey: k.secretKey }] : [];
    });
  }

  /**
   * The validators of a configuration (ConfigParams 34 and 28), with the secret keys of those derived
   * from `seed`. A devnet made before it had validators holds mainnet's set: it signs nothing
   * (`canSign` false) and its blocks keep the list hash they were made with.
   */
  static fromConfig(config: Cell, seed: string): DevnetValidators {
    const dict = loadConfigDict(config);
    const p34 = dict.get(34);
    const p28 = dict.get(28);
    if (!p34 || !p28) throw new Error('the devnet configuration has no validator set (ConfigParam 34) or catchain config (28)');
    const vset = loadValidatorSet(p34);
    const cc = loadCatchainConfig(p28);
    const keys = new Map(devnetValidatorKeys(seed).map((k) => [k.publicKey.toString('hex'), k]));
    const mc = computeValidatorSubset(vset, cc, { workchain: -1, shard: MASTERCHAIN_SHARD }, 0);
    const shard = computeValidatorSubset(vset, cc, { workchain: 0, shard: MASTERCHAIN_SHARD }, 0);
    return new DevnetValidators(mc, shard, keys, vset, cc);
  }

  /** gen_validator_list_hash_short of a basechain shard's blocks at a catchain seqno (each shard draws its own subset). */
  shardListHash(shard: bigint, ccSeqno: number): number {
    const key = `${shard.toString(16)}:${ccSeqno}`;
    let hash = this.#shardHashes.get(key);
    if (hash === undefined) {
      hash = validatorSetHashShort(ccSeqno, computeValidatorSubset(this.vset, this.cc, { workchain: 0, shard }, ccSeqno));
      this.#shardHashes.set(key, hash);
    }
    return hash;
  }

  /** True when every masterchain validator's key is known (a devnet with its own validators). */
  get canSign(): boolean {
    return this.#signers.length === DEVNET_VALIDATORS;
  }

  /** Every masterchain validator's signature of a block (ed25519 is deterministic: same bytes each time). */
  sign(block: { rootHash: Buffer; fileHash: Buffer }): BlockSignature[] {
    const message = blockSignedBytes(block.rootHash, block.fileHash);
    return this.#signers.map((s) => ({ nodeIdShort: s.id, signature: ed25519Sign(message, s.secretKey) }));
  }
}
