/**
 * TON global config (config.global JSON): the lite servers a client may talk to and the network's
 * zero state. Bundled for mainnet and testnet in ./networks, trimmed to what clients need
 * (liteservers, validator.zero_state / init_block). Their source is the public repository
 * ton-blockchain/ton-blockchain.github.io (served as https://ton.org/global.config.json and
 * https://ton.org/testnet-global.config.json): global.config.json at commit
 * 23bc3bd3e21614e5e4cef16afae97570abbb3991 and testnet-global.config.json at commit
 * f9dc71695d8a64a9e76e6ca6a0d95750a91034c6. Refresh them from there when servers change.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LiteServerEndpoint } from './connection';
import mainnetJson from './networks/mainnet.json';
import testnetJson from './networks/testnet.json';

export class GlobalConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlobalConfigError';
  }
}

export interface BlockRef {
  workchain: number;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface ParsedGlobalConfig {
  liteservers: LiteServerEndpoint[];
  zeroState: BlockRef | undefined;
  initBlock: BlockRef | undefined;
}

const base64Of32 = (what: string) =>
  z
    .string({ error: `${what} (base64 of 32 bytes)` })
    .refine((s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && Buffer.from(s, 'base64').length === 32, {
      message: `expected ${what} as base64 of 32 bytes`,
    });

const liteserver = z.object({
  ip: z.int32({ error: 'expected the IPv4 address as a signed 32-bit integer' }),
  port: z.int({ error: 'expected a port number' }).min(1, 'expected a port from 1 to 65535').max(65535, 'expected a port from 1 to 65535'),
  id: z.object(
    {
      '@type': z.literal('pub.ed25519', { error: 'expected "pub.ed25519"' }),
      key: base64Of32('an ed25519 public key'),
    },
    { error: 'expected {"@type": "pub.ed25519", "key": ...}' },
  ),
});

const blockRef = z.object({
  workchain: z.int({ error: 'expected a workchain number' }),
  seqno: z.int({ error: 'expected a seqno' }).min(0, 'expected a seqno >= 0'),
  root_hash: base64Of32('a root hash'),
  file_hash: base64Of32('a file hash'),
});

const schema = z.object(
  {
    liteservers: z
      .array(liteserver, { error: 'expected an array of lite servers' })
      .min(1, 'expected at least one lite server'),
    validator: z
      .object({ zero_state: blockRef.optional(), init_block: blockRef.optional() }, { error: 'expected an object' })
      .optional(),
  },
  { error: 'expected a JSON object' },
);

/** Signed 32-bit integer (as in TON configs) → dotted IPv4. */
export function int32ToIpv4(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(root)';
}

const toBlockRef = (b: z.infer<typeof blockRef> | undefined): BlockRef | undefined =>
  b && {
    workchain: b.workchain,
    seqno: b.seqno,
    rootHash: Buffer.from(b.root_hash, 'base64'),
    fileHash: Buffer.from(b.file_hash, 'base64'),
  };

/** Validates a parsed global config; `source` (a path or name) prefixes every error message. */
export function parseGlobalConfig(json: unknown, source: string): ParsedGlobalConfig {
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new GlobalConfigError(`${source}: ${pathText(issue.path)}: ${issue.message}`);
  }
  return {
    liteservers: r.data.liteservers.map((s) => ({
      host: int32ToIpv4(s.ip),
      port: s.port,
      publicKey: Buffer.from(s.id.key, 'base64'),
    })),
    zeroState: toBlockRef(r.data.validator?.zero_state),
    initBlock: toBlockRef(r.data.validator?.init_block),
  };
}

/** Reads and validates a global config file. */
export function loadGlobalConfig(path: string): ParsedGlobalConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new GlobalConfigError(`${path}: cannot read the global config: ${e instanceof Error ? e.message : String(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new GlobalConfigError(`${path}: not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseGlobalConfig(json, path);
}

/** The bundled global config of a public network. */
export function bundledGlobalConfig(network: 'mainnet' | 'testnet'): ParsedGlobalConfig {
  return network === 'mainnet'
    ? parseGlobalConfig(mainnetJson, 'lib/lite/networks/mainnet.json')
    : parseGlobalConfig(testnetJson, 'lib/lite/networks/testnet.json');
}
