// Addresses and code hashes the protocols themselves fix (mainnet): contracts a matcher recognises by
// who they are rather than by what they say. Metamorphic tests keep these when they rename addresses.

/** The .ton DNS collection and its items' code hash (toncenter's test for a DNS item). */
export const DNS_COLLECTION = '0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF';
export const DNS_ITEM_CODE_HASH = 'i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk=';

/** The masterchain elector. */
export const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';

/** Ethena on TON: USDe and staked USDe (tsUSDe) masters. */
export const ETHENA_USDE = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
export const ETHENA_TSUSDE = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';

/** The proxy-TON masters (stonfi pTON v1 and v2, TONCO's wTTON): their wallets carry TON behind the jetton interface. */
export const PTON_MASTERS: ReadonlySet<string> = new Set([
  '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
  '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3',
  '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E',
]);

/** Every address above: what an address-renaming test must leave alone. */
export const PROTOCOL_ADDRESSES: ReadonlySet<string> = new Set([DNS_COLLECTION, ELECTOR, ETHENA_USDE, ETHENA_TSUSDE, ...PTON_MASTERS]);
