// Deep imports of tonweb (CommonJS, no typings for these files). Importing the package root would also
// load tonweb's Ledger transports; only the static `codeHex` of these contract classes is used.
declare module 'tonweb/src/contract/highloadWallet/HighloadWalletContractV3.js' {
  export const HighloadWalletContractV3: { readonly codeHex: string; readonly WALLET_ID_BASE: number };
}

declare module 'tonweb/src/contract/lockup/VestingWalletV1.js' {
  export const VestingWalletV1: { readonly codeHex: string; readonly WALLET_ID_BASE: number };
}
