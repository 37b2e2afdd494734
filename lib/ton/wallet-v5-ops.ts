// The message kinds of wallet v5 (ton-blockchain/wallet-contract-v5): what the classifier reads a signed
// request by (lib/actions/wallet.ts) and what the pages call such a message (lib/format/opcodes.ts).
// Plain numbers with no imports, so the pages' bundle can take them.

export const WALLET_V5_OP = {
  /** `sign`: a request signed by the owner, sent as an external message. */
  signedExternal: 0x7369676e,
  /** `sint`: the same request, sent as an internal message. */
  signedInternal: 0x73696e74,
  /** `extn`: an action asked for by an installed extension. */
  extensionAction: 0x6578746e,
} as const;
