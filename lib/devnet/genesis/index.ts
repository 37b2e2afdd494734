/** The devnet's genesis scenario, its chain driver interface and the background traffic generator. */
export { canRunCode, chainNow, sandboxDriver, storageUsedOf, type ChainDriver } from './driver';
export {
  GENESIS_AUCTION,
  GENESIS_FUNDING,
  GENESIS_JETTON,
  GENESIS_JETTON_AMOUNTS,
  GENESIS_JETTON2_AMOUNTS,
  GENESIS_OFFCHAIN_JETTON_URI,
  GENESIS_QUERY_IDS,
  GENESIS_SOLD_SALE,
  GENESIS_STABLECOIN,
  GENESIS_STORAGE_DOMAIN,
  GENESIS_TEXTS,
  GENESIS_TOTAL_SUPPLY,
  GENESIS_WALLETS,
  genesisAddress,
  runGenesis,
  writeGenesisFile,
  type GenesisAccount,
  type GenesisOptions,
} from './genesis';
export { deriveKeyPair, SeededRandom } from './keys';
export { createTrafficGenerator, type TrafficGenerator, type TrafficOptions, type TrafficStats } from './traffic';
export { MARKET_MOVES, type MarketMove } from './traffic-market';
export { WalletHandle, type OutgoingMessage } from './wallet-handle';
