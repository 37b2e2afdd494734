// Parameter values by what a parameter means. The meaning is read from the parameter's JSON schema
// (type, format, the description params.ts gives addresses, hashes and BoCs) and its name; values are
// valid (from the corpus), boundary (edges of the type and of Atlas's limits) or invalid.
import type { BlockRef, Corpus, TxRef } from './corpus';
import type { FuzzParam, JsonSchema } from './routes';
import type { Rng } from './rng';

export type Value = string | number | bigint | boolean | null | Value[] | { [key: string]: Value };

export type Kind =
  | 'address' | 'addressOrNull' | 'hash' | 'boc' | 'seqno' | 'workchain' | 'shard' | 'lt' | 'utime' | 'limit' | 'offset'
  | 'int' | 'bool' | 'enum' | 'opcode' | 'getMethod' | 'stackV2' | 'stackV3' | 'dnsName' | 'timeout' | 'string' | 'any';

const description = (s: JsonSchema) => String(s.description ?? '');

/** What a parameter means; array parameters are described by their items (see isList). */
export function kindOf(p: Pick<FuzzParam, 'name' | 'schema'>): Kind {
  const s = p.schema.type === 'array' && p.name !== 'stack' ? ((p.schema.items ?? {}) as JsonSchema) : p.schema;
  const d = description(s) || description(p.schema);
  const n = p.name.toLowerCase();
  if (n === 'stack') return (p.schema.items as JsonSchema | undefined)?.type === 'object' ? 'stackV3' : 'stackV2';
  if (s.enum) return 'enum';
  if (/bag of cells|boc/i.test(d) || n === 'boc') return 'boc';
  if (/32-byte hash/.test(d)) return 'hash';
  if (/address/i.test(d) && s.type === 'string') return /`null`/.test(d) ? 'addressOrNull' : 'address';
  if (n === 'address' || n === 'account') return 'address';
  if (n === 'method') return 'getMethod';
  if (n === 'name') return 'dnsName';
  if (n === 'opcode' || n === 'opcodes') return 'opcode';
  if (n === 'shard') return 'shard';
  if (s.type === 'boolean') return 'bool';
  if (n.endsWith('lt') || s.format === 'uint64') return 'lt';
  if (n.includes('seqno')) return 'seqno';
  if (n === 'workchain') return 'workchain';
  if (n.includes('utime') || n === 'unixtime') return 'utime';
  if (n === 'limit' || n === 'count') return 'limit';
  if (n === 'offset') return 'offset';
  if (n.includes('timeout')) return 'timeout';
  if (s.type === 'integer') return 'int';
  if (s.type === 'string') return 'string';
  return 'any';
}

export const isList = (p: Pick<FuzzParam, 'name' | 'schema'>) => p.schema.type === 'array' && p.name !== 'stack';

const hex = (rng: Rng, bytes: number) => Array.from({ length: bytes }, () => rng.int(256).toString(16).padStart(2, '0')).join('');
const b64 = (rng: Rng, bytes: number) => Buffer.from(hex(rng, bytes), 'hex').toString('base64');
const or = <T>(rng: Rng, items: T[], fallback: () => T) => (items.length ? rng.pick(items) : fallback());

/** A hash in one of the accepted spellings. */
function spellHash(rng: Rng, base64: string): string {
  const buf = Buffer.from(base64, 'base64');
  return rng.pick([base64, buf.toString('hex'), buf.toString('hex').toUpperCase(), buf.toString('base64url')]);
}

const GET_METHODS = ['seqno', 'get_public_key', 'get_wallet_id', 'get_jetton_data', 'get_wallet_data', 'get_nft_data', 'get_collection_data', 'get_subwallet_id', 'no_such_method', 85143, '85143'];
// Spellings around an enum's values: other cases and abbreviations some routes accept, and a wrong one.
const ENUM_EXTRA = ['ASC', 'a', 'd', 'DESC', 'In', 'sideways'];

/**
 * The transaction and block one request's valid values come from, so that they belong together: the
 * lt and hash of getTransactions are those of one transaction of that address, the seqno, shard and
 * root hash of a block route those of one block.
 */
export interface Anchor {
  tx?: TxRef;
  block?: BlockRef;
  /** Values from anywhere in the corpus instead, which need not match (a 404 is a fine answer too). */
  mixed?: boolean;
}

export const pickAnchor = (c: Corpus, rng: Rng): Anchor => ({
  tx: c.txs.length ? rng.pick(c.txs) : undefined,
  block: c.blocks.length ? rng.pick(c.blocks) : undefined,
  mixed: rng.chance(0.2),
});

/** A valid value; `p` is the parameter (its name tells a root hash from a message hash). */
export function validValue(kind: Kind, p: Pick<FuzzParam, 'name' | 'schema'>, c: Corpus, rng: Rng, a: Anchor = {}): Value {
  const { schema } = p;
  const name = p.name.toLowerCase();
  const own = !a.mixed;
  switch (kind) {
    case 'address':
    case 'addressOrNull':
      return own && a.tx ? a.tx.account : or(rng, c.addresses, () => `0:${hex(rng, 32)}`);
    case 'hash': {
      if (name.includes('root_hash') && a.block) return spellHash(rng, a.block.rootHash);
      if (name.includes('file_hash') && a.block) return spellHash(rng, a.block.fileHash);
      const tx = own && a.tx ? a.tx : c.txs.length ? rng.pick(c.txs) : undefined;
      if (!tx) return b64(rng, 32);
      return spellHash(rng, /msg|body/.test(name) && tx.msgHash ? tx.msgHash : tx.hash);
    }
    case 'boc':
      // A `boc` is a whole message (send routes); a body or init code/data is any cell.
      return name === 'boc' ? or(rng, c.externals, () => 'te6cckEBAQEAAgAAAEysuc0=') : or(rng, c.bodies, () => 'te6cckEBAQEAAgAAAEysuc0=');
    case 'seqno':
      return own && a.block ? a.block.seqno : 1 + rng.int(c.lastSeqno);
    case 'workchain':
      return a.block ? a.block.workchain : rng.pick([-1, 0]);
    case 'shard': {
      const shard = a.block?.shard ?? '8000000000000000';
      // v2 takes the shard as a signed 64-bit integer, v3 as hex (with or without 0x) or signed decimal.
      const signed = BigInt.asIntN(64, BigInt(`0x${shard}`)).toString();
      return schema.type === 'integer' ? signed : rng.pick([shard, `0x${shard}`, signed]);
    }
    case 'lt':
      return own && a.tx ? a.tx.lt : c.txs.length ? rng.pick(c.txs).lt : String(rng.int(1e9));
    case 'utime':
      return a.tx ? a.tx.now : Math.floor(Date.now() / 1000);
    case 'limit':
      return 1 + rng.int(50);
    case 'offset':
      return rng.int(20);
    case 'timeout':
      return rng.pick([100, 1000, 3000]);
    case 'int':
      return rng.int(40);
    case 'bool':
      return rng.pick([true, false, 'true', 'false', '1', '0']);
    case 'enum':
      return rng.pick((schema.enum ?? (schema.items as JsonSchema | undefined)?.enum ?? ['']) as Value[]);
    case 'opcode':
      return rng.pick(['0x0f8a7ea5', '0x00000000', '7362d09c', '-1']);
    case 'getMethod':
      return rng.pick(GET_METHODS);
    case 'stackV2':
      return rng.pick<Value>([[], [['num', '0x1']], [['num', String(rng.int(1000))]], [['tvm.Slice', or(rng, c.bodies, () => 'te6cckEBAQEAAgAAAEysuc0=')]]]);
    case 'stackV3':
      return rng.pick<Value>([[], [{ type: 'num', value: '0x1' }], [{ type: 'slice', value: or(rng, c.bodies, () => 'te6cckEBAQEAAgAAAEysuc0=') }]]);
    case 'dnsName':
      return rng.pick(['alice', 'atlas', 'alice.ton', '', 'nobody']);
    case 'string':
      return rng.pick(['', 'x', 'wallet', '0']);
    case 'any':
      return rng.pick([1, 'x', null]);
  }
}

const INT_EDGES: Value[] = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 53 + 1, 2n ** 53n + 1n, 2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n), 2n ** 64n, 10n ** 30n, 1e308, '9'.repeat(400)];

/** Values at the edges of the kind's type and of the route's limits. */
export function boundaryValue(kind: Kind, schema: JsonSchema, c: Corpus, rng: Rng): Value {
  switch (kind) {
    case 'seqno':
    case 'workchain':
    case 'lt':
    case 'utime':
    case 'limit':
    case 'offset':
    case 'timeout':
    case 'int':
    case 'opcode':
      return rng.pick([...INT_EDGES, 1000, 1001, c.lastSeqno + 1, c.lastSeqno + 10_000]);
    case 'shard':
      return rng.pick(['0', '0x0', '0xffffffffffffffff', 'ffffffffffffffff', '8000000000000000'.padStart(17, '0'), ...INT_EDGES]);
    case 'address':
    case 'addressOrNull':
      return rng.pick([`0:${'f'.repeat(64)}`, `-1:${'0'.repeat(64)}`, `2147483647:${'0'.repeat(64)}`, `-2147483648:${'0'.repeat(64)}`, `5:${'0'.repeat(64)}`, '', ' ']);
    case 'hash':
      return rng.pick(['0'.repeat(64), 'f'.repeat(64), `0x${'0'.repeat(64)}`, 'A'.repeat(43), 'A'.repeat(44), '']);
    case 'boc':
      return rng.pick(['', 'te6cckEBAQEAAgAAAEysuc0=', ...c.hostileBocs, Buffer.alloc(70_000).toString('base64')]);
    case 'stackV2': {
      // Built only when picked: the largest is 100,000 entries.
      const stacks: (() => Value)[] = [
        () => Array.from({ length: 400 }, (_, i) => ['num', i]),
        () => Array.from({ length: 1000 }, (_, i) => ['num', i]),
        () => Array.from({ length: 1001 }, (_, i) => ['num', String(i)]),
        // The request that once ran the whole process out of heap.
        () => Array.from({ length: 100_000 }, (_, i) => ['num', i]),
        () => [['num', `0x${'f'.repeat(80)}`]],
        () => [['num', '-0x8000000000000000000000000000000000000000000000000000000000000000']],
        () => [['tvm.Tuple', nestedTuple(rng.pick([10, 100, 300]))]],
        () => [['tvm.Cell', rng.pick(c.hostileBocs)]],
      ];
      return rng.pick(stacks)();
    }
    case 'stackV3': {
      const stacks: (() => Value)[] = [
        () => Array.from({ length: 400 }, (_, i) => ({ type: 'num', value: String(i) })),
        () => Array.from({ length: 1000 }, (_, i) => ({ type: 'num', value: String(i) })),
        () => Array.from({ length: 1001 }, (_, i) => ({ type: 'num', value: String(i) })),
        () => [{ type: 'num', value: `0x${'f'.repeat(80)}` }],
        () => [{ type: 'cell', value: rng.pick(c.hostileBocs) }],
      ];
      return rng.pick(stacks)();
    }
    case 'dnsName':
      return rng.pick(['.', '..', 'a'.repeat(126), 'a'.repeat(127), 'a'.repeat(1000), 'ton']);
    case 'getMethod':
      return rng.pick(['', 'x'.repeat(1000), 0, -1, 2 ** 31, 2n ** 63n]);
    default:
      return rng.pick(['', 'x'.repeat(rng.pick([255, 256, 4096, 20_000])), 0, -1]);
  }
}

function nestedTuple(depth: number): Value {
  let v: Value = [];
  for (let i = 0; i < depth; i++) v = [['tvm.Tuple', v]];
  return v;
}

/** Wrong types and malformed spellings for the kind. */
export function invalidValue(kind: Kind, rng: Rng): Value {
  const wrongType = (): Value => rng.pick<Value>([null, true, {}, { a: 1 }, [], [1, 2], 1.5, -0.5, 'NaN', 'Infinity', '1e3', ' 1', '0x10', '１２３']);
  const text = (): Value =>
    rng.pick([
      'invalid',
      '%00',
      '\u0000',
      '\ud800',
      '😀'.repeat(10),
      '\u202e' + 'abc',
      "'; DROP TABLE transactions; --",
      '<script>alert(1)</script>',
      '../../etc/passwd',
      '${jndi:x}',
      '\r\nX-Injected: 1',
    ]);
  switch (kind) {
    case 'address':
    case 'addressOrNull':
      return rng.pick<Value>([`0:${'0'.repeat(63)}`, `0:${'g'.repeat(64)}`, `x:${'0'.repeat(64)}`, 'EQ' + 'A'.repeat(46), 'EQ' + 'A'.repeat(45) + '!', '0:', ':', wrongType(), text()]);
    case 'hash':
      return rng.pick<Value>(['0'.repeat(63), 'g'.repeat(64), '====', 'A'.repeat(45), wrongType(), text()]);
    case 'boc':
      return rng.pick<Value>(['not base64!', 'te6cckEBAQEAAgAAAEysuc', 'AAAA', Buffer.from('b5ee9c72ffffffff', 'hex').toString('base64'), wrongType(), text()]);
    case 'enum':
      return rng.chance(0.5) ? rng.pick(ENUM_EXTRA) : wrongType();
    case 'stackV2':
      return rng.pick<Value>([{}, 'x', [['num']], [['num', 'x']], [['tvm.Cell', 'not a boc']], [['unknown', 1]], [[1, 2, 3]], [null], wrongType()]);
    case 'stackV3':
      return rng.pick<Value>([{}, 'x', [{ type: 'num' }], [{ type: 'num', value: 'x' }], [{ type: 'cell', value: 'AAAA' }], [{ type: 'tuple', value: [] }], wrongType()]);
    default:
      return rng.chance(0.5) ? wrongType() : text();
  }
}
