import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // WASM and native-ish packages must load from node_modules at run time, not be bundled. @ton/core too:
  // the external TON packages check `instanceof Cell` against node_modules' copy, so a second, bundled
  // copy would make their cells foreign to each other ("Invalid argument").
  serverExternalPackages: [
    '@ton/core',
    '@ton/crypto',
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    'pg',
    'pino',
    '@ton/sandbox',
    '@ton/ton',
    '@ton/tolk-js',
    '@ton-community/assets-sdk',
    'tonweb',
    'ton-lite-client',
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  // Lint and typecheck run in `npm test`; `npm start` builds only.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
