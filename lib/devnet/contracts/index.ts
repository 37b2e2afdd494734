/** Contracts of the devnet: code from npm packages (wallets, highload, jetton, NFT, vesting) and Tolk (DNS, stablecoin, auction, multisig). */
export * from './auction';
export * from './common';
export * from './dns';
export * from './highload';
export * from './jetton';
export * from './multisig';
export * from './nft';
export * from './stablecoin';
export * from './tolk';
export * from './vesting';
export * from './wallets';
