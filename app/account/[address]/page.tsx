import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AccountView } from '@/components/views/AccountView';
import { txPageParams } from '@/lib/client/cursor';
import { ApiError } from '@/lib/client/fetcher';
import { accountJettonsParams, accountNftsParams, activityParams, vestingParams } from '@/lib/client/filters';
import { dehydrated, prefetch, prefetchWithin, serverQueryClient, tryPrefetch } from '@/lib/client/server';
import { chainTextPlain } from '@/lib/format/chain-text';
import { decodeLoosely } from '@/lib/format/uri';
import { MULTISIG_ORDER_V2, MULTISIG_V2, WALLET_VESTING } from '@/lib/ton/interface-names';
import type { PageQuery } from '@/lib/http/page-query';

export const dynamic = 'force-dynamic';

/** How long a render waits for the live balance (read through the lite servers, not the index). */
const LIVE_READ_WAIT_MS = 1000;

type Props = { params: Promise<{ address: string }>; searchParams: Promise<PageQuery<'/account/[address]'>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  // The path is whatever a link said: hidden characters in it show as markers in the tab title too.
  return { title: `Account ${chainTextPlain(decodeLoosely((await params).address), 100)}` };
}

export default async function AccountPage({ params, searchParams }: Props) {
  const address = decodeLoosely((await params).address);
  // Only the parameters the page reads: a render is kept for every query string (page-query.ts).
  const { cursor, activity, activity_cursor: activityCursor } = await searchParams;
  const place = { cursor, activity, activity_cursor: activityCursor };
  const qc = serverQueryClient();
  // Everything at once: the address check decides between the page and not-found, and waiting for it
  // before the rest would put one more request in front of every render.
  const rest = Promise.all([
    // A state the server could not read in time (a 504 under load) is read by the browser, as every other
    // section's: the page still renders.
    tryPrefetch(qc, 'accountStates', { address, include_boc: true }).then(async (states) => {
      // The sections of vesting wallets and multisig wallets and orders read their own routes: one
      // indexed lookup, prefetched only for those accounts.
      const state = states?.accounts[0];
      const interfaces = state?.interfaces ?? [];
      if (interfaces.includes(WALLET_VESTING)) await tryPrefetch(qc, 'vesting', vestingParams(address));
      if (interfaces.includes(MULTISIG_V2)) await tryPrefetch(qc, 'multisigWallets', { address: [state!.address] });
      if (interfaces.includes(MULTISIG_ORDER_V2)) await tryPrefetch(qc, 'multisigOrders', { address: [state!.address], parse_actions: true });
    }),
    tryPrefetch(qc, 'walletStates', { address }),
    prefetchWithin(qc, 'liveAccount', { address }, LIVE_READ_WAIT_MS),
    tryPrefetch(qc, 'transactions', txPageParams({ account: address }, cursor)),
    tryPrefetch(qc, 'actions', activityParams(address, activity, activityCursor)),
    tryPrefetch(qc, 'jettonWallets', accountJettonsParams(address)).then((held) => {
      const jettons = [...new Set((held?.jetton_wallets ?? []).map((w) => w.jetton))];
      return jettons.length ? tryPrefetch(qc, 'jettonMasters', { address: jettons }) : undefined;
    }),
    tryPrefetch(qc, 'nftItems', accountNftsParams(address)),
    tryPrefetch(qc, 'dnsRecords', { wallet: address }),
  ]);
  rest.catch(() => undefined); // not an address: its failures are the not-found below, not unhandled
  try {
    await prefetch(qc, 'detectAddress', { address });
  } catch (err) {
    // v2 answers 422 for anything that is not an address.
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) notFound();
    throw err;
  }
  await rest;
  return (
    <HydrationBoundary state={dehydrated(qc)}>
      <AccountView address={address} place={place} />
    </HydrationBoundary>
  );
}
