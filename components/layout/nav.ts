// Only pages that exist: a link to a missing page is a 404 for the reader and for Next's prefetch.
export const NAV_ITEMS = [
  { href: '/blocks', label: 'Blocks' },
  { href: '/transactions', label: 'Transactions' },
  { href: '/accounts', label: 'Accounts' },
  { href: '/jettons', label: 'Jettons' },
  { href: '/nfts', label: 'NFTs' },
  { href: '/emulate', label: 'Emulate' },
  { href: '/api-docs', label: 'API' },
] as const;
