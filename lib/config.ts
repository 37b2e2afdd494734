// The only module that reads process.env. Every setting is validated once, at start-up; an invalid value
// stops the process with one line naming the variable (see scripts/start.ts and the README table).
import path from 'node:path';
import { z } from 'zod';

const port = z
  .string()
  .regex(/^\d+$/, 'an integer from 1 to 65535')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 65535, 'an integer from 1 to 65535');

const postgresUrl = z
  .string()
  .refine((s) => /^postgres(ql)?:\/\/./.test(s) && URL.canParse(s), 'a URL of the form postgresql://user@host:port/database');

const redisUrl = z
  .string()
  .refine((s) => /^rediss?:\/\/./.test(s) && URL.canParse(s), 'a URL of the form redis://host:port');

const schema = z.object({
  PORT: port.default(3000),
  ATLAS_DATA_DIR: z.string().min(1, 'a directory path').default('./.atlas'),
  DATABASE_URL: postgresUrl.optional(),
  TON_NETWORK: z
    .enum(['devnet', 'mainnet', 'testnet', 'custom'], { error: 'one of devnet, mainnet, testnet, custom' })
    .default('devnet'),
  TON_GLOBAL_CONFIG: z.string().min(1, 'a path to a liteserver global config JSON file').optional(),
  REDIS_URL: redisUrl.optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export type Network = 'devnet' | 'mainnet' | 'testnet' | 'custom';

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  network: Network;
  globalConfigPath: string | undefined;
  redisUrl: string | undefined;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** Next.js build workers import server code too; they must never start services. */
  isBuildPhase: boolean;
  /** Tests (vitest) run with quieter defaults. */
  isTest: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Validate an environment. Empty strings count as unset, as shells often export `VAR=`. */
export function parseConfig(env: Env): Config {
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name] ?? '')}: expected ${issue.message}`);
  }
  const v = result.data;
  if (v.TON_NETWORK === 'custom' && !v.TON_GLOBAL_CONFIG) {
    throw new ConfigError('Missing TON_GLOBAL_CONFIG: expected a path to a liteserver global config JSON file when TON_NETWORK=custom');
  }
  return {
    port: v.PORT,
    dataDir: path.resolve(v.ATLAS_DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    network: v.TON_NETWORK,
    globalConfigPath: v.TON_GLOBAL_CONFIG ? path.resolve(v.TON_GLOBAL_CONFIG) : undefined,
    redisUrl: v.REDIS_URL,
    logLevel: v.LOG_LEVEL,
    isBuildPhase: env.NEXT_PHASE === 'phase-production-build',
    isTest: env.VITEST === 'true' || env.NODE_ENV === 'test',
  };
}

let cached: Config | undefined;

/** The process's configuration, validated on first use. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
