import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { Header } from '@/components/layout/Header';
import { themeInitScript } from '@/components/layout/theme';
import { NONCE_HEADER } from '@/lib/http/security-headers';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Atlas — TON explorer', template: '%s · Atlas' },
  description: 'Open TON blockchain explorer and toncenter-compatible data API',
  icons: { icon: '/favicon.svg' },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#0f172a' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page policy allows only scripts with this request's nonce (proxy.ts); reading it makes every
  // page render per request, which they already did (live chain data).
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // The theme script changes the class before hydration; that difference is intended.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeInitScript }} />
      </head>
      <body className="min-h-screen font-sans">
        <Providers>
          <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900">
            Skip to content
          </a>
          <Header />
          <main id="main" className="mx-auto max-w-7xl px-4 py-6">
            {children}
          </main>
          <footer className="mx-auto max-w-7xl px-4 py-8 text-sm text-slate-500 dark:text-slate-400">
            Atlas — open TON explorer and API. <a className="underline" href="/api/health">Status</a>
          </footer>
        </Providers>
      </body>
    </html>
  );
}
