import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      dataDir: path.resolve('./.atlas'),
      databaseUrl: undefined,
      network: 'devnet',
      globalConfigPath: undefined,
      redisUrl: undefined,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const c = parseConfig({
      PORT: '8080',
      ATLAS_DATA_DIR: '/var/lib/atlas',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/atlas',
      TON_NETWORK: 'custom',
      TON_GLOBAL_CONFIG: '/etc/ton/global.config.json',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'debug',
    });
    expect(c).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/atlas',
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/atlas',
      network: 'custom',
      globalConfigPath: '/etc/ton/global.config.json',
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'debug',
    });
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT="abc": expected an integer from 1 to 65535'],
    [{ PORT: '70000' }, 'Invalid PORT="70000": expected an integer from 1 to 65535'],
    [{ PORT: '-1' }, 'Invalid PORT="-1"'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'Invalid DATABASE_URL="mysql://x/y": expected a URL of the form postgresql://'],
    [{ TON_NETWORK: 'moon' }, 'Invalid TON_NETWORK="moon": expected one of devnet, mainnet, testnet, custom'],
    [{ REDIS_URL: 'localhost:6379' }, 'Invalid REDIS_URL="localhost:6379": expected a URL of the form redis://'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid LOG_LEVEL="loud": expected one of fatal'],
    [{ TON_NETWORK: 'custom' }, 'Missing TON_GLOBAL_CONFIG'],
  ])('rejects %o with a message naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });
});
