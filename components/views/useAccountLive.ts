'use client';

import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ActionsResponse } from '@/lib/client/registry';
import { apiQuery, useLive, useRefresh, type LiveState } from '@/lib/client/live';
import { resourceKey } from '@/lib/client/queries';
import type { ActionsNotificationJson, NotificationJson } from '@/lib/stream/protocol';

/** The pending section's data (pendingActions) with `norm`'s actions replaced by `actions` (none: dropped). */
function withTrace(old: ActionsResponse | undefined, norm: string, n?: ActionsNotificationJson): ActionsResponse | undefined {
  if (!old && !n) return old;
  const others = (old?.actions ?? []).filter((a) => a.trace_external_hash_norm !== norm);
  return {
    actions: [...(n?.actions ?? []), ...others],
    address_book: { ...old?.address_book, ...n?.address_book },
    metadata: { ...old?.metadata, ...n?.metadata },
  };
}

/** What a finalized trace of the account may have changed on its page (names, codes and token metadata stay). */
const CHANGED_BY_A_TRACE = ['actions', 'transactions', 'accountStates', 'walletStates', 'liveAccount', 'jettonWallets', 'nftItems', 'dnsRecords', 'multisigWallets', 'multisigOrders', 'vesting'];

/**
 * An account page follows its account: its actions while pending or confirmed go into the pending
 * section's cached answer (pendingActions) as they are streamed; once a trace is finalized (or void) it
 * leaves that section and the page's other lists and figures are read again, so the real actions take
 * its place without a reload.
 */
export function useAccountLive(address: string): LiveState | null {
  const qc = useQueryClient();
  const pendingKey = resourceKey('pendingActions', { account: address });
  const refresh = useRefresh((key: QueryKey) => apiQuery(key, ...CHANGED_BY_A_TRACE));
  const onNotification = (n: NotificationJson) => {
    if (n.type === 'trace_invalidated') return qc.setQueryData<ActionsResponse>(pendingKey, (old) => withTrace(old, n.trace_external_hash_norm));
    if (n.type !== 'actions' && n.type !== 'transactions') return;
    if (n.finality !== 'finalized') {
      if (n.type === 'actions') qc.setQueryData<ActionsResponse>(pendingKey, (old) => withTrace(old, n.trace_external_hash_norm, n));
      return;
    }
    qc.setQueryData<ActionsResponse>(pendingKey, (old) => withTrace(old, n.trace_external_hash_norm));
    refresh();
  };
  return useLive({ types: ['transactions', 'actions'], addresses: [address], min_finality: 'pending', include_address_book: true }, onNotification, (key) => apiQuery(key));
}
