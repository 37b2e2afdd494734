// Atlas's lite-client layer: see README.md in this folder.
export { createLiteClient, liteServerStatus, liteSourceFor, probeLiteServers, type AtlasLiteEngine, type CreateLiteClientOptions, type LiteSource } from './client';
export { CachedLiteEngine, TtlLru, type CachedLiteEngineOptions, type LiteCacheOptions, type LiteCacheStats } from './cache';
export { LitePool, DEFAULT_LITE_TIMEOUT_MS, type LitePoolOptions, type LiteServerStatus } from './pool';
export { LiteConnection, type LiteConnectionOptions, type LiteLogger, type LiteServerEndpoint } from './connection';
export { describeServerOutcomes, isHistoryGone, isStateGone, LiteErrorCodes, LiteServerError, LiteTimeoutError, LiteVerificationError, normalizeLiteError } from './errors';
export { VerifyingLiteEngine, type TrustAnchor } from './verify';
export {
  GlobalConfigError,
  bundledGlobalConfig,
  int32ToIpv4,
  loadGlobalConfig,
  parseGlobalConfig,
  type BlockRef,
  type ParsedGlobalConfig,
} from './global-config';
