'use client';

import type { ReactNode } from 'react';
import { useResource } from '@/lib/client/queries';
import { claimedDomain } from '@/lib/format/nft';
import { DomainLink } from '../entity/Nft';

/**
 * The .ton name of a DNS item, linked to its DNS page only when dns/records says that name belongs to
 * this very item (its content could claim any name); `fallback` otherwise.
 */
export function ItemDomain({ item, content, fallback = null }: { item: string; content: Record<string, string> | null | undefined; fallback?: ReactNode }) {
  const domain = claimedDomain(content);
  const q = useResource('dnsRecords', { domain: domain ?? '' }, { enabled: !!domain });
  const confirmed = q.data?.records.find((r) => r.nft_item_address === item);
  return confirmed ? <DomainLink domain={confirmed.domain} /> : <>{fallback}</>;
}
