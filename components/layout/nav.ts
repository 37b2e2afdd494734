export const NAV_ITEMS = [
  { href: '/blocks', label: 'Blocks' },
  { href: '/transactions', label: 'Transactions' },
  { href: '/accounts', label: 'Accounts' },
  { href: '/jettons', label: 'Jettons' },
  { href: '/nfts', label: 'NFTs' },
  { href: '/dns', label: 'DNS' },
  { href: '/api-docs', label: 'API' },
] as const;
