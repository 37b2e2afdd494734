// toncenter's names of the contract interfaces (lib/ton/interfaces.ts) that more than one layer names:
// the derive stage detects them, the routes serve their tables, the account page shows their sections.
// No imports, so client components can name them too.
export const WALLET_VESTING = 'wallet_vesting';
export const MULTISIG_V2 = 'multisig_v2';
export const MULTISIG_ORDER_V2 = 'multisig_order_v2';
