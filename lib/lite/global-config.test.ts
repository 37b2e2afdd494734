import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isIPv4 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { globalConfigFor, ipv4ToInt32, stringifyGlobalConfig } from '../devnet/transport/adnl-server';
import { GlobalConfigError, bundledGlobalConfig, int32ToIpv4, loadGlobalConfig, parseGlobalConfig } from './global-config';
import mainnetJson from './networks/mainnet.json';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('bundled global configs', () => {
  it.each(['mainnet', 'testnet'] as const)('%s parses into distinct lite servers', (network) => {
    const cfg = bundledGlobalConfig(network);
    expect(cfg.liteservers.length).toBeGreaterThan(3);
    for (const s of cfg.liteservers) {
      expect(isIPv4(s.host)).toBe(true);
      expect(s.port).toBeGreaterThan(0);
      expect(s.publicKey.length).toBe(32);
    }
    expect(new Set(cfg.liteservers.map((s) => s.publicKey.toString('hex'))).size).toBe(cfg.liteservers.length);
    expect(cfg.zeroState).toMatchObject({ workchain: -1, seqno: 0 });
    expect(cfg.initBlock?.seqno).toBeGreaterThan(0);
  });

  it('carries the known zero states', () => {
    // The masterchain zero state root hashes of the public networks.
    expect(bundledGlobalConfig('mainnet').zeroState?.rootHash.toString('base64')).toBe('F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=');
    expect(bundledGlobalConfig('testnet').zeroState?.rootHash.toString('base64')).toBe('gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=');
    // signed int32 → dotted quad
    expect(bundledGlobalConfig('mainnet').liteservers[0].host).toBe(int32ToIpv4(mainnetJson.liteservers[0].ip));
  });
});

describe('parseGlobalConfig', () => {
  const server = { ip: ipv4ToInt32('192.168.1.200'), port: 4924, id: { '@type': 'pub.ed25519', key: b64('ab'.repeat(32)) } };

  it('converts signed int32 addresses', () => {
    expect(int32ToIpv4(ipv4ToInt32('192.168.1.200'))).toBe('192.168.1.200');
    expect(int32ToIpv4(-1)).toBe('255.255.255.255');
    expect(int32ToIpv4(0x7f000001)).toBe('127.0.0.1');
    const cfg = parseGlobalConfig({ liteservers: [server] }, 'x.json');
    expect(cfg.liteservers).toEqual([{ host: '192.168.1.200', port: 4924, publicKey: Buffer.alloc(32, 0xab) }]);
    expect(cfg.zeroState).toBeUndefined();
  });

  it('reads what the devnet writes', () => {
    const publicKey = Buffer.alloc(32, 7);
    const text = stringifyGlobalConfig(
      globalConfigFor({ host: '127.0.0.1', port: 30310, publicKey, zeroState: { rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) } }),
    );
    const cfg = parseGlobalConfig(JSON.parse(text), 'devnet.json');
    expect(cfg.liteservers).toEqual([{ host: '127.0.0.1', port: 30310, publicKey }]);
    expect(cfg.zeroState?.rootHash.equals(Buffer.alloc(32, 1))).toBe(true);
  });

  it.each([
    [[], 'cfg.json: (root): expected a JSON object'],
    [{}, 'cfg.json: liteservers: expected an array of lite servers'],
    [{ liteservers: [] }, 'cfg.json: liteservers: expected at least one lite server'],
    [{ liteservers: [{ ...server, ip: 3232235976 }] }, 'cfg.json: liteservers[0].ip: expected the IPv4 address as a signed 32-bit integer'],
    [{ liteservers: [{ ...server, ip: '192.168.1.1' }] }, 'cfg.json: liteservers[0].ip:'],
    [{ liteservers: [server, { ...server, port: 70000 }] }, 'cfg.json: liteservers[1].port: expected a port from 1 to 65535'],
    [{ liteservers: [{ ...server, id: { '@type': 'pub.aes', key: server.id.key } }] }, 'cfg.json: liteservers[0].id.@type: expected "pub.ed25519"'],
    [{ liteservers: [{ ...server, id: { '@type': 'pub.ed25519', key: b64('ab'.repeat(31)) } }] }, 'cfg.json: liteservers[0].id.key: expected an ed25519 public key as base64 of 32 bytes'],
    [{ liteservers: [{ ip: 1, port: 1 }] }, 'cfg.json: liteservers[0].id: expected {"@type": "pub.ed25519", "key": ...}'],
    [
      { liteservers: [server], validator: { zero_state: { workchain: -1, seqno: 0, root_hash: 'nope', file_hash: b64('00'.repeat(32)) } } },
      'cfg.json: validator.zero_state.root_hash: expected a root hash as base64 of 32 bytes',
    ],
  ])('rejects %j with the path and the problem', (json, message) => {
    expect(() => parseGlobalConfig(json, 'cfg.json')).toThrow(GlobalConfigError);
    expect(() => parseGlobalConfig(json, 'cfg.json')).toThrow(message);
  });
});

describe('loadGlobalConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atlas-global-config-'));

  it('names the file when it is missing, not JSON, or malformed', () => {
    const missing = join(dir, 'missing.json');
    expect(() => loadGlobalConfig(missing)).toThrow(`${missing}: cannot read the global config`);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"liteservers": [');
    expect(() => loadGlobalConfig(broken)).toThrow(`${broken}: not valid JSON`);

    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ liteservers: [{ ip: 1, port: 1, id: { '@type': 'pub.ed25519', key: 'AAAA' } }] }));
    expect(() => loadGlobalConfig(wrong)).toThrow(`${wrong}: liteservers[0].id.key: expected an ed25519 public key as base64 of 32 bytes`);
  });

  it('loads a valid file', () => {
    const ok = join(dir, 'ok.json');
    const publicKey = Buffer.alloc(32, 9);
    writeFileSync(ok, stringifyGlobalConfig(globalConfigFor({ host: '10.0.0.1', port: 1234, publicKey })));
    expect(loadGlobalConfig(ok).liteservers).toEqual([{ host: '10.0.0.1', port: 1234, publicKey }]);
  });
});
