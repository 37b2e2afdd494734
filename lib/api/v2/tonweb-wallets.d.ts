// Deep import of tonweb (CommonJS, no typings for this file): wallet v4 r1, which @ton/ton does not ship.
// Only the code cell its constructor builds is used (wallets.ts).
declare module 'tonweb/src/contract/wallet/WalletContractV4.js' {
  export class WalletV4ContractR1 {
    constructor(provider: object, options: { publicKey: Uint8Array; wc: number });
    readonly options: { code: { toBoc(hasIdx?: boolean): Promise<Uint8Array> } };
  }
}
