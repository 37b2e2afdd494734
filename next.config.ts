import type { NextConfig } from 'next';
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from './lib/http/security-headers';

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
  // Pages get their per-request policy (with a nonce) from proxy.ts; the API, which proxy.ts leaves
  // alone so request bodies reach the routes untouched, gets a fixed one here.
  async headers() {
    return [
      { source: '/:path*', headers: [...STATIC_SECURITY_HEADERS] },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
  reactStrictMode: true,
  // Lint and typecheck run in `npm test`; `npm start` builds only.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
