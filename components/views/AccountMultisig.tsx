'use client';

import type { ReactNode } from 'react';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { JettonMasterJson } from '@/lib/api/v3/models/jettons';
import type { MultisigOrderActionJson, MultisigOrderJson } from '@/lib/api/v3/models/multisig';
import { useResource } from '@/lib/client/queries';
import { jettonDisplay } from '@/lib/format/jetton';
import { LIMITS } from '@/lib/limits';
import { approvedIndexes } from '@/lib/ton/multisig-codes';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { ChainTextPreview } from '../entity/ChainText';
import { JettonLink } from '../entity/Jetton';
import { Time } from '../entity/Time';
import { Badge, Card, Fields } from '../ui/Card';
import { ErrorNote } from '../ui/States';

// The multisig v2 sections of an account page: a wallet's signers, proposers, threshold and orders with
// their approvals; an order's wallet, status, approvals and actions in plain words. Both read
// /multisig/wallets and /multisig/orders (the page prefetches them for accounts with those interfaces).

type Status = 'executed' | 'expired' | 'pending';

function orderStatus(o: MultisigOrderJson, nowSec: number): Status {
  if (o.sent_for_execution) return 'executed';
  return o.expiration_date < nowSec ? 'expired' : 'pending';
}

const STATUS_STYLE: Record<Status, string> = {
  executed: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300',
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  expired: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

function StatusBadge({ status }: { status: Status }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[status]}`} data-testid="order-status" suppressHydrationWarning>
      {status}
    </span>
  );
}

const nowSec = () => Math.floor(Date.now() / 1000);

/** Who approved an order: its signers whose bit is set in the approvals mask. */
const approvers = (o: MultisigOrderJson) => approvedIndexes(BigInt(o.approvals_mask), o.signers.length).map((i) => o.signers[i]!);

function Approvals({ order, book }: { order: MultisigOrderJson; book: AddressBookJson }) {
  const who = approvers(order);
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="order-approvals">
      <span className="text-sm">
        {order.approvals_num} of {order.threshold}
      </span>
      {who.length > 0 && (
        <span className="inline-flex flex-wrap items-center gap-1 text-sm text-slate-600 dark:text-slate-400">
          by{' '}
          {who.map((a) => (
            <Address key={a} raw={a} book={book} />
          ))}
        </span>
      )}
    </span>
  );
}

function AddressList({ list, book, empty }: { list: string[]; book: AddressBookJson; empty: string }) {
  if (!list.length) return <span className="text-sm text-slate-500">{empty}</span>;
  return (
    <ol className="space-y-1">
      {list.map((a, i) => (
        <li key={a} className="flex items-center gap-2">
          <span className="w-5 text-right font-mono text-xs text-slate-500">{i}</span>
          <Address raw={a} book={book} />
        </li>
      ))}
    </ol>
  );
}

/** A multisig wallet: who signs and proposes, how many approvals execute, and its orders. */
export function MultisigWalletSection({ address }: { address: string }) {
  const q = useResource('multisigWallets', { address: [address] });
  if (q.error) return <ErrorNote error={q.error} />;
  const m = q.data?.multisigs[0];
  if (!m) return null;
  const book = q.data!.address_book;
  const orders = m.orders ?? [];
  const now = nowSec();
  return (
    <Card title="Multisig" id="multisig">
      <div className="space-y-4" data-testid="multisig-wallet">
        <Fields
          rows={[
            ['Threshold', <span key="t" data-testid="multisig-threshold">{m.threshold} of {m.signers.length} signers</span>],
            ['Signers', <AddressList key="s" list={m.signers} book={book} empty="none" />],
            ['Proposers', <AddressList key="p" list={m.proposers} book={book} empty="none (only signers create orders)" />],
            ['Next order', m.next_order_seqno === '-1' ? 'any seqno' : `#${m.next_order_seqno}`],
          ]}
        />
        <div>
          <h3 className="mb-2 text-sm text-slate-600 dark:text-slate-400">Orders</h3>
          {orders.length >= LIMITS.multisigOrdersPerWallet && (
            <p className="mb-2 text-xs text-slate-500" data-testid="multisig-orders-newest">
              The newest {LIMITS.multisigOrdersPerWallet} orders.
            </p>
          )}
          {orders.length === 0 ? (
            <p className="text-sm text-slate-500">No orders yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="multisig-orders">
              {orders.map((o) => (
                <li key={o.address} className="flex flex-col gap-1 py-2 sm:flex-row sm:flex-wrap sm:items-center sm:gap-3" data-testid="multisig-order">
                  <span className="inline-flex items-center gap-2">
                    <span className="font-medium">Order #{o.order_seqno}</span>
                    <Address raw={o.address} book={book} />
                  </span>
                  <StatusBadge status={orderStatus(o, now)} />
                  <Approvals order={o} book={book} />
                  <span className="text-sm text-slate-600 dark:text-slate-400">
                    expires <Time utime={o.expiration_date} compact />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Card>
  );
}

type Masters = ReadonlyMap<string, JettonMasterJson>;

function JettonUnits({ amount, master, masters, book }: { amount: string; master: string | undefined; masters: Masters; book: AddressBookJson }) {
  const info = master ? masters.get(master) : undefined;
  if (!master || !info) return <><Amount value={amount} decimals={0} symbol="units of" /> {master ? <JettonLink master={master} book={book} /> : 'a jetton'}</>;
  return <><Amount value={amount} decimals={jettonDisplay(info.jetton_content).decimals} symbol="" maxFraction={4} /> <JettonLink master={master} info={info} book={book} /></>;
}

/** One order action in plain words: what the multisig will send (or change) when the order executes. */
function OrderActionWords({ action, book, jettonOf, masters }: { action: MultisigOrderActionJson; book: AddressBookJson; jettonOf: (wallet: string | null) => string | undefined; masters: Masters }) {
  const b = (action.parsed_body ?? {}) as Record<string, unknown>;
  const s = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : null);
  let words: ReactNode;
  switch (action.parsed_body_type) {
    case 'ton_transfer':
      words = <>send <Amount value={action.value ?? '0'} maxFraction={4} /> to <Address raw={action.destination} book={book} /></>;
      break;
    case 'jetton_transfer':
      words = (
        <>
          send <JettonUnits amount={s('amount') ?? '0'} master={jettonOf(action.destination)} masters={masters} book={book} /> to <Address raw={s('destination')} book={book} />
        </>
      );
      break;
    case 'jetton_burn':
      words = <>burn <JettonUnits amount={s('amount') ?? '0'} master={jettonOf(action.destination)} masters={masters} book={book} /></>;
      break;
    case 'nft_transfer':
      words = <>transfer NFT <Address raw={action.destination} book={book} /> to <Address raw={s('new_owner')} book={book} /></>;
      break;
    case 'jetton_top_up':
      words = <>top up jetton <Address raw={action.destination} book={book} /> with <Amount value={action.value ?? '0'} maxFraction={4} /></>;
      break;
    case 'jetton_change_admin':
      words = <>offer the admin role of jetton <Address raw={action.destination} book={book} /> to <Address raw={s('new_admin_address')} book={book} /></>;
      break;
    case 'jetton_claim_admin':
      words = <>take the admin role of jetton <Address raw={action.destination} book={book} /></>;
      break;
    case 'jetton_change_content':
      words = (
        <>
          change the metadata of jetton <Address raw={action.destination} book={book} /> to <ChainTextPreview text={s('new_metadata_url') ?? ''} />
        </>
      );
      break;
    case 'jetton_call_to':
      words = (
        <>
          have jetton <Address raw={action.destination} book={book} /> {b.action_type === 'JettonSetStatus' ? 'set the status of the wallet of' : 'act on the wallet of'}{' '}
          <Address raw={s('to_address')} book={book} />
        </>
      );
      break;
    case 'jetton_set_status':
      words = <>set the status of jetton wallet <Address raw={action.destination} book={book} /> to {String(b.new_status)}</>;
      break;
    case 'single_nominator_withdraw':
      words = <>withdraw <Amount value={s('coins') ?? '0'} maxFraction={4} /> from nominator pool <Address raw={action.destination} book={book} /></>;
      break;
    case 'single_nominator_change_validator':
      words = <>make <Address raw={s('validator_address')} book={book} /> the validator of pool <Address raw={action.destination} book={book} /></>;
      break;
    case 'vesting_internal_transfer':
      words = (
        <>
          have vesting wallet <Address raw={action.destination} book={book} /> send <Amount value={s('value') ?? '0'} maxFraction={4} /> to <Address raw={s('destination')} book={book} />
        </>
      );
      break;
    case 'multisig_update_params': {
      const signers = Array.isArray(b.new_signers) ? b.new_signers.length : 0;
      words = <>change the multisig to {String(b.new_threshold)} of {signers} signers</>;
      break;
    }
    default:
      words = action.destination ? (
        <>send <Amount value={action.value ?? '0'} maxFraction={4} /> to <Address raw={action.destination} book={book} /> with a message Atlas does not decode</>
      ) : (
        <>an action Atlas does not decode</>
      );
  }
  const comment = s('comment');
  return (
    <div className="flex min-w-0 flex-col gap-1" data-testid="order-action">
      <span className="flex flex-wrap items-center gap-1 text-sm">{words}</span>
      {comment && (
        <span className="min-w-0 truncate text-xs italic text-slate-600 dark:text-slate-400">
          <span className="sr-only">Comment: </span>
          <ChainTextPreview text={comment} />
        </span>
      )}
    </div>
  );
}

/** A multisig order: its wallet, status, approvals and what it does. */
export function MultisigOrderSection({ address }: { address: string }) {
  const q = useResource('multisigOrders', { address: [address], parse_actions: true });
  const o = q.data?.orders[0];
  const actions = o?.actions ?? [];
  const jettonActions = actions.filter((a) => (a.parsed_body_type === 'jetton_transfer' || a.parsed_body_type === 'jetton_burn') && a.destination);
  const wallets = useResource('jettonWallets', { address: jettonActions.map((a) => a.destination!) }, { enabled: jettonActions.length > 0 });
  const jettons = [...new Set((wallets.data?.jetton_wallets ?? []).map((w) => w.jetton))];
  const mastersQ = useResource('jettonMasters', { address: jettons }, { enabled: jettons.length > 0 });
  if (q.error) return <ErrorNote error={q.error} />;
  if (!o) return null;
  const book = { ...wallets.data?.address_book, ...q.data!.address_book };
  const masters: Masters = new Map((mastersQ.data?.jetton_masters ?? []).map((m) => [m.address, m]));
  const jettonOf = (wallet: string | null) => wallets.data?.jetton_wallets.find((w) => w.address === wallet)?.jetton;
  const status = orderStatus(o, nowSec());
  const approved = new Set(approvers(o));
  const waiting = o.signers.filter((a) => !approved.has(a));
  return (
    <Card title={`Multisig order #${o.order_seqno}`} id="multisig-order">
      <div className="space-y-4" data-testid="multisig-order-details">
        <Fields
          rows={[
            ['Multisig', <Address key="m" raw={o.multisig_address} book={book} />],
            ['Status', <StatusBadge key="s" status={status} />],
            ['Approvals', <Approvals key="a" order={o} book={book} />],
            ...(status === 'pending' && waiting.length
              ? ([['Not yet approved by', <span key="w" className="inline-flex flex-wrap gap-1">{waiting.map((a) => <Address key={a} raw={a} book={book} />)}</span>]] as [string, ReactNode][])
              : []),
            ['Expires', <span key="e" data-testid="order-expires"><Time utime={o.expiration_date} /></span>],
          ]}
        />
        <div>
          <h3 className="mb-2 text-sm text-slate-600 dark:text-slate-400">{status === 'executed' ? 'What it did' : 'What it does when executed'}</h3>
          <ol className="list-decimal space-y-2 pl-5">
            {actions.map((a, i) => (
              <li key={i}>
                <OrderActionWords action={a} book={book} jettonOf={jettonOf} masters={masters} />
              </li>
            ))}
          </ol>
          {!actions.length && <Badge>no actions</Badge>}
        </div>
      </div>
    </Card>
  );
}
