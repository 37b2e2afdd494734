import os from 'node:os';
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
      liteTimeoutMs: 5000,
      redisUrl: undefined,
      logLevel: 'info',
      http: { trustProxy: false, maxInFlight: 24, shedEventLoopDelayMs: 500, requestTimeoutMs: 30_000, pageCache: true },
      pages: { rateLimitRps: 100, maxRenders: 2 },
    });
  });

  it('reads the pages rate limit and render bound, and refuses values out of range', () => {
    expect(parseConfig({ RATE_LIMIT_PAGES_RPS: '100', PAGE_RENDERS: '4' }).pages).toEqual({ rateLimitRps: 100, maxRenders: 4 });
    expect(() => parseConfig({ RATE_LIMIT_PAGES_RPS: '0' })).toThrow('Invalid RATE_LIMIT_PAGES_RPS="0": expected requests per second, an integer from 1 to 1000000');
    expect(() => parseConfig({ PAGE_RENDERS: '0' })).toThrow('Invalid PAGE_RENDERS="0": expected renders, an integer from 1 to 1000');
  });

  it('reads every variable', () => {
    const c = parseConfig({
      PORT: '8080',
      ATLAS_DATA_DIR: '/var/lib/atlas',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/atlas',
      TON_NETWORK: 'custom',
      TON_GLOBAL_CONFIG: '/etc/ton/global.config.json',
      LITE_TIMEOUT_MS: '1500',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'debug',
    });
    expect(c).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/atlas',
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/atlas',
      network: 'custom',
      globalConfigPath: '/etc/ton/global.config.json',
      liteTimeoutMs: 1500,
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'debug',
    });
  });

  it('gives the devnet defaults, traffic off under tests unless asked', () => {
    expect(parseConfig({}).devnet).toEqual({ blockMs: 2000, tps: 2, adnlPort: 46732, seed: undefined, traffic: true });
    expect(parseConfig({ VITEST: 'true' }).devnet.traffic).toBe(false);
    expect(parseConfig({ VITEST: 'true', DEVNET_TRAFFIC: 'on' }).devnet.traffic).toBe(true);
    expect(
      parseConfig({ DEVNET_BLOCK_MS: '500', DEVNET_TPS: '0.5', DEVNET_ADNL_PORT: '4000', DEVNET_SEED: 'demo', DEVNET_TRAFFIC: 'off' }).devnet,
    ).toEqual({ blockMs: 500, tps: 0.5, adnlPort: 4000, seed: 'demo', traffic: false, shards: undefined, shardSchedule: undefined });
    expect(parseConfig({ DEVNET_SHARDS: '4', DEVNET_SHARD_SCHEDULE: 'cycle:20' }).devnet).toMatchObject({ shards: 4, shardSchedule: { kind: 'cycle', rounds: 20 } });
    expect(parseConfig({ DEVNET_SHARD_SCHEDULE: 'off' }).devnet.shardSchedule).toEqual({ kind: 'off' });
    expect(parseConfig({ DEVNET_ADNL_PORT: '0' }).devnet.adnlPort).toBe(0); // 0: any free port
  });

  it('runs the indexer in-process by default; a start seqno is optional', () => {
    expect(parseConfig({}).indexer).toEqual({ inProcess: true, startSeqno: 1 }); // the devnet from its first block
    expect(parseConfig({ TON_NETWORK: 'mainnet' }).indexer).toEqual({ inProcess: true, startSeqno: undefined });
    expect(parseConfig({ INDEXER: 'off', INDEXER_START_SEQNO: '46991999' }).indexer).toEqual({ inProcess: false, startSeqno: 46991999 });
  });

  it('gives the Streaming API its limits, each settable and checked', () => {
    expect(parseConfig({}).stream).toEqual({ maxConnectionsPerKey: 100, maxConnectionsPerIp: 20, maxAddresses: 1000, bufferBytes: 256 * 1024, keepaliveMs: 15_000, wsMessagesPerSecond: 10, confirmed: true });
    const env = { STREAM_MAX_CONNECTIONS_PER_KEY: '5', STREAM_MAX_CONNECTIONS_PER_IP: '2', STREAM_MAX_ADDRESSES: '10', STREAM_BUFFER_KB: '64', STREAM_KEEPALIVE_MS: '2000', STREAM_WS_MESSAGES_PER_SECOND: '3', STREAM_CONFIRMED: 'off' };
    expect(parseConfig(env).stream).toEqual({ maxConnectionsPerKey: 5, maxConnectionsPerIp: 2, maxAddresses: 10, bufferBytes: 64 * 1024, keepaliveMs: 2000, wsMessagesPerSecond: 3, confirmed: false });
    expect(() => parseConfig({ STREAM_WS_MESSAGES_PER_SECOND: '0' })).toThrow('Invalid STREAM_WS_MESSAGES_PER_SECOND="0": expected messages per second, an integer from 1 to 10000');
    expect(() => parseConfig({ STREAM_BUFFER_KB: '1' })).toThrow('Invalid STREAM_BUFFER_KB="1": expected kilobytes, an integer from 16 to 1048576');
    expect(() => parseConfig({ STREAM_MAX_CONNECTIONS_PER_IP: '0' })).toThrow(/STREAM_MAX_CONNECTIONS_PER_IP/);
  });

  it('caps API requests in flight per client at 8 unless set, off turns it off', () => {
    expect(parseConfig({}).maxInFlightPerClient).toBe(8);
    expect(parseConfig({ MAX_IN_FLIGHT_PER_CLIENT: '16' }).maxInFlightPerClient).toBe(16);
    expect(parseConfig({ MAX_IN_FLIGHT_PER_CLIENT: 'off' }).maxInFlightPerClient).toBeUndefined();
    expect(() => parseConfig({ MAX_IN_FLIGHT_PER_CLIENT: '0' })).toThrow('Invalid MAX_IN_FLIGHT_PER_CLIENT="0": expected off, or requests, an integer from 1 to 100000');
  });

  it('lets anonymous clients call the APIs unless API_KEYS_REQUIRED; answers carry 1000 transactions unless set', () => {
    expect(parseConfig({}).apiKeysRequired).toBe(false);
    expect(parseConfig({ API_KEYS_REQUIRED: 'on' }).apiKeysRequired).toBe(true);
    expect(parseConfig({}).apiMaxAnswerTransactions).toBe(1000);
    expect(parseConfig({ API_MAX_ANSWER_TRANSACTIONS: '250' }).apiMaxAnswerTransactions).toBe(250);
    expect(() => parseConfig({ API_MAX_ANSWER_TRANSACTIONS: '0' })).toThrow(/API_MAX_ANSWER_TRANSACTIONS/);
  });

  it('leaves off-chain metadata unfetched unless asked, with a public IPFS gateway', () => {
    expect(parseConfig({}).metadata).toEqual({ fetch: false, ipfsGateway: 'https://ipfs.io/ipfs/' });
    expect(parseConfig({ METADATA_FETCH: 'on', METADATA_IPFS_GATEWAY: 'https://gw.example/ipfs/' }).metadata).toEqual({ fetch: true, ipfsGateway: 'https://gw.example/ipfs/' });
  });

  it('reads no replicas by default; replicas of a PostgreSQL primary as a comma-separated list', () => {
    expect(parseConfig({}).replicas).toEqual({ urls: [], maxLagMs: 10_000 });
    const c = parseConfig({
      DATABASE_URL: 'postgresql://postgres@db1:5432/atlas',
      DATABASE_REPLICA_URLS: 'postgresql://reader:secret@db2:5432/atlas, postgres://db3/atlas',
      DATABASE_REPLICA_MAX_LAG_MS: '2500',
    });
    expect(c.replicas).toEqual({ urls: ['postgresql://reader:secret@db2:5432/atlas', 'postgres://db3/atlas'], maxLagMs: 2500 });
  });

  it('runs the API on every CPU with PostgreSQL, on one process with PGlite (API_WORKERS)', () => {
    const pg = 'postgresql://postgres@127.0.0.1:5432/atlas';
    expect(parseConfig({ DATABASE_URL: pg }).apiWorkers).toBe(os.availableParallelism());
    expect(parseConfig({ DATABASE_URL: pg, API_WORKERS: '3' }).apiWorkers).toBe(3);
    expect(parseConfig({ API_WORKERS: '3' }).apiWorkers).toBe(1);
    expect(() => parseConfig({ API_WORKERS: '0' })).toThrow('Invalid API_WORKERS="0": expected API worker processes, an integer from 1 to 256');
    expect(() => parseConfig({ API_WORKERS: 'all' })).toThrow('Invalid API_WORKERS="all"');
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
    [{ LITE_TIMEOUT_MS: '5s' }, 'Invalid LITE_TIMEOUT_MS="5s": expected milliseconds, an integer from 100 to 600000'],
    [{ LITE_TIMEOUT_MS: '50' }, 'Invalid LITE_TIMEOUT_MS="50"'],
    [{ DEVNET_BLOCK_MS: '2s' }, 'Invalid DEVNET_BLOCK_MS="2s": expected milliseconds, an integer from 50 to 600000'],
    [{ DEVNET_BLOCK_MS: '10' }, 'Invalid DEVNET_BLOCK_MS="10"'],
    [{ DEVNET_TPS: 'fast' }, 'Invalid DEVNET_TPS="fast": expected messages per second, a number from 0 to 1000'],
    [{ DEVNET_TPS: '5000' }, 'Invalid DEVNET_TPS="5000"'],
    [{ DEVNET_ADNL_PORT: '-5' }, 'Invalid DEVNET_ADNL_PORT="-5"'],
    [{ INDEXER: 'sometimes' }, 'Invalid INDEXER="sometimes": expected on or off'],
    [{ INDEXER_START_SEQNO: '0' }, 'Invalid INDEXER_START_SEQNO="0": expected a masterchain seqno, an integer from 1'],
    [{ INDEXER_START_SEQNO: 'latest' }, 'Invalid INDEXER_START_SEQNO="latest"'],
    [{ DEVNET_TRAFFIC: 'maybe' }, 'Invalid DEVNET_TRAFFIC="maybe": expected on or off'],
    [{ DEVNET_SHARDS: '3' }, 'Invalid DEVNET_SHARDS="3": expected 1, 2, 4 or 8'],
    [{ DEVNET_SHARD_SCHEDULE: 'cycle:0' }, 'Invalid DEVNET_SHARD_SCHEDULE="cycle:0": expected off, or cycle:N'],
    [{ TON_NETWORK: 'custom' }, 'Missing TON_GLOBAL_CONFIG'],
    [{ DATABASE_REPLICA_URLS: 'postgresql://db2/atlas' }, 'DATABASE_REPLICA_URLS needs DATABASE_URL'],
    [{ DATABASE_URL: 'postgresql://db1/atlas', DATABASE_REPLICA_URLS: 'postgresql://db2/atlas,db3:5432' }, 'Invalid DATABASE_REPLICA_URLS="postgresql://db2/atlas,db3:5432": expected comma-separated URLs of the form postgresql://'],
    [{ DATABASE_URL: 'postgresql://db1/atlas', DATABASE_REPLICA_URLS: ' , ' }, 'Invalid DATABASE_REPLICA_URLS=" , "'],
    [{ DATABASE_REPLICA_MAX_LAG_MS: '10s' }, 'Invalid DATABASE_REPLICA_MAX_LAG_MS="10s": expected milliseconds, an integer from 100 to 3600000'],
    [{ TRUST_PROXY: 'yes' }, 'Invalid TRUST_PROXY="yes": expected on or off'],
    [{ MAX_IN_FLIGHT: '0' }, 'Invalid MAX_IN_FLIGHT="0": expected requests, an integer from 1 to 100000'],
    [{ SHED_EVENT_LOOP_DELAY_MS: '1s' }, 'Invalid SHED_EVENT_LOOP_DELAY_MS="1s": expected milliseconds, an integer from 10 to 60000'],
    [{ METADATA_FETCH: 'yes' }, 'Invalid METADATA_FETCH="yes": expected on or off'],
    [{ METADATA_IPFS_GATEWAY: 'ipfs://x' }, 'Invalid METADATA_IPFS_GATEWAY="ipfs://x": expected an http(s) URL'],
    [{ REQUEST_TIMEOUT_MS: '500' }, 'Invalid REQUEST_TIMEOUT_MS="500": expected milliseconds, an integer from 1000 to 600000'],
  ])('rejects %o with a message naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
  });
});
