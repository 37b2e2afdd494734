// Pending traces inside one `npm start` cluster without Redis: the primary keeps the one in-memory store
// and every worker reads and writes it over IPC, so a message accepted by one worker is found by a client
// that asks another. With REDIS_URL every process uses the Redis store instead.
import type { PendingEntry, PendingStore } from '../pending/store';
import { onPrimaryMessage, onWorkerMessage, toPrimary, toWorker } from './channel';
import type { PendingOp } from './messages';
import type { ClusterRole } from './role';

/** A worker waits this long for the primary's answer before the call fails. */
const REPLY_TIMEOUT_MS = 5_000;

/** `local` as this process should use it: itself (single), served to the workers (primary), or the primary's (worker). */
export function clusterPendingStore(role: ClusterRole, local: () => PendingStore): PendingStore {
  if (role === 'single') return local();
  if (role === 'primary') return servePendingStore(local());
  return primaryPendingStore();
}

function servePendingStore(store: PendingStore): PendingStore {
  const off = onWorkerMessage((worker, m) => {
    if (m.t !== 'pending') return;
    call(store, m.op, m.args).then(
      (result) => toWorker(worker, { atlas: 'cluster', t: 'pending-reply', id: m.id, result: result ?? null }),
      (err: Error) => toWorker(worker, { atlas: 'cluster', t: 'pending-reply', id: m.id, error: err.message }),
    );
  });
  return {
    put: (entry) => store.put(entry),
    byHashes: (hashes) => store.byHashes(hashes),
    byAccounts: (accounts, index) => store.byAccounts(accounts, index),
    delete: (hashes) => store.delete(hashes),
    async close() {
      off();
      await store.close();
    },
  };
}

function call(store: PendingStore, op: PendingOp, args: unknown[]): Promise<PendingEntry[] | void> {
  switch (op) {
    case 'put':
      return store.put(args[0] as PendingEntry);
    case 'byHashes':
      return store.byHashes(args[0] as string[]);
    case 'byAccounts':
      return store.byAccounts(args[0] as string[], args[1] as 'transactions' | 'actions');
    case 'delete':
      return store.delete(args[0] as string[]);
  }
}

function primaryPendingStore(): PendingStore {
  let next = 0;
  const waiting = new Map<number, { resolve: (v: PendingEntry[] | null | undefined) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  const off = onPrimaryMessage((m) => {
    if (m.t !== 'pending-reply') return;
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    clearTimeout(w.timer);
    if (m.error !== undefined) w.reject(new Error(`pending store (primary): ${m.error}`));
    else w.resolve(m.result);
  });
  const ask = (op: PendingOp, args: unknown[]) =>
    new Promise<PendingEntry[] | null | undefined>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`pending store: the primary did not answer in ${REPLY_TIMEOUT_MS} ms`));
      }, REPLY_TIMEOUT_MS);
      waiting.set(id, { resolve, reject, timer });
      toPrimary({ atlas: 'cluster', t: 'pending', id, op, args });
    });
  return {
    put: async (entry) => void (await ask('put', [entry])),
    byHashes: async (hashes) => (await ask('byHashes', [hashes])) ?? [],
    byAccounts: async (accounts, index) => (await ask('byAccounts', [accounts, index])) ?? [],
    delete: async (hashes) => void (await ask('delete', [hashes])),
    async close() {
      off();
      for (const w of waiting.values()) clearTimeout(w.timer);
    },
  };
}
