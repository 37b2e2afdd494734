// Opcodes of the messages an owner or admin sends its contracts — what a multisig's order typically
// carries: a governed jetton's admin (USDT's stablecoin-contract), a jetton minter's top-up, a single
// nominator pool's owner, a vesting wallet's owner. The devnet's contracts, the action classifier and
// /multisig/orders' action decoding (lib/api/v3/multisig-actions.ts) all take them from here.

/** Governed jetton minter and wallet (stablecoin-contract). */
export const STABLECOIN_OP = {
  mint: 0x642b7d07,
  changeAdmin: 0x6501f354,
  claimAdmin: 0xfb88e119,
  changeMetadataUri: 0xcb862902,
  callTo: 0x235caf52,
  setStatus: 0xeed236d3,
} as const;

/** top_up#d372158c query_id:uint64: TON for a jetton minter's balance (ton-blockchain/jetton-contract). */
export const JETTON_TOP_UP_OP = 0xd372158c;

/** Single nominator pool owner → pool: withdraw#1000 query_id amount:Coins, change_validator#1001 query_id new_validator:MsgAddress. */
export const SINGLE_NOMINATOR_OP = { withdraw: 0x1000, changeValidator: 0x1001 } as const;

/** Vesting wallet: send#a7733acd query_id mode:uint8 ^message (owner → wallet), its answer, add_whitelist. */
export const VESTING_OP = { sendMessage: 0xa7733acd, response: 0xf7733acd, addWhitelist: 0x7258a69b } as const;
