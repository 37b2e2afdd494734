/**
 * The configuration inside a liteServer.configInfo `configProof`: MERKLE_PROOF of a masterchain
 * ShardStateUnsplit whose custom McStateExtra keeps `config:ConfigParams`
 * (config_addr:bits256 config:^(Hashmap 32 ^Cell)).
 *
 * Read by hand rather than with @ton/core's loadShardStateUnsplit, which misreads McStateExtra
 * (see config.ts), and by walking one key rather than loading the dictionary: a getConfigParams proof
 * prunes the parameters that were not asked for.
 */
import { Cell } from '@ton/core';
import { dictKeyPath } from './hashmap-aug';

/** The Hashmap 32 ^Cell root of the configuration in a config proof. */
export function configRootFromProof(configProof: Buffer): Cell {
  const state = Cell.fromBoc(configProof)[0].refs[0];
  const s = state.beginParse();
  // shard_state#9023afe2 global_id shard_id:ShardIdent seq_no vert_seq_no gen_utime gen_lt min_ref_mc_seqno
  //   out_msg_queue_info:^_ before_split:Bool accounts:^_ ^[…] custom:(Maybe ^McStateExtra)
  s.skip(32 + 32 + 104 + 32 + 32 + 32 + 64 + 32 + 1);
  s.loadRef();
  s.loadRef();
  s.loadRef();
  const custom = s.loadMaybeRef();
  if (!custom) throw new Error('config proof: the state is not a masterchain state');
  const cs = custom.beginParse();
  if (cs.loadUint(16) !== 0xcc26) throw new Error('config proof: bad McStateExtra tag');
  if (cs.loadBit()) cs.loadRef(); // shard_hashes
  cs.skip(256); // config_addr
  return cs.loadRef();
}

/** The value cell of parameter `id` (an int32), or undefined when the configuration has none. */
export function configParamCell(root: Cell, id: number): Cell | undefined {
  const path = dictKeyPath(root, 32, BigInt.asUintN(32, BigInt(id)));
  const leaf = path.at(-1);
  return leaf ? leaf.refs[leaf.refs.length - 1] : undefined;
}
