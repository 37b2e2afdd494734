'use client';

import Link from 'next/link';
import { useResource } from '@/lib/client/queries';
import { toUrlSafe } from '@/lib/format/hash';
import { MULTISIG_ORDER_V2, MULTISIG_V2, WALLET_VESTING } from '@/lib/ton/interface-names';
import { interfaceLabel } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { BocDownload } from '../entity/Boc';
import { CopyButton } from '../entity/CopyButton';
import { QrCode } from '../entity/QrCode';
import { Badge, Card, Fields, PageTitle } from '../ui/Card';
import { PageSkeleton } from '../ui/Skeleton';
import { ErrorNote } from '../ui/States';
import { AccountActivity } from './AccountActivity';
import { AccountDomains } from './AccountDomains';
import { AccountJettons } from './AccountJettons';
import { MultisigOrderSection, MultisigWalletSection } from './AccountMultisig';
import { AccountNfts } from './AccountNfts';
import { AccountVesting } from './AccountVesting';
import { GetMethodRunner } from './GetMethodRunner';
import { LiveBalance } from './LiveBalance';
import { TxSection } from './TxSection';
import { useAccountLive } from './useAccountLive';

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1">
      <span className="break-all font-mono text-sm">{value}</span>
      <CopyButton value={value} label={`Copy ${label}`} />
    </span>
  );
}

/** What the account page's query says: the transactions' cursor, the activity's kind and its cursor. */
export interface AccountPlace {
  cursor?: string;
  activity?: string;
  activity_cursor?: string;
}

/** The account page's URL at `place`: each section's paging keeps the other's place. */
function accountHref(address: string, place: AccountPlace): string {
  const q = new URLSearchParams(Object.entries(place).filter((e): e is [string, string] => !!e[1]));
  const query = q.toString();
  return `/account/${encodeURIComponent(address)}${query ? `?${query}` : ''}`;
}

export function AccountView({ address, place }: { address: string; place: AccountPlace }) {
  const { cursor, activity, activity_cursor: activityCursor } = place;
  // The page follows the account's stream: what it sends and receives shows up without a reload.
  useAccountLive(address);
  const forms = useResource('detectAddress', { address });
  const states = useResource('accountStates', { address, include_boc: true });
  const wallets = useResource('walletStates', { address });
  if (forms.error) return <ErrorNote error={forms.error} />;
  if (!forms.data || !states.data) return <PageSkeleton cards={3} />;
  const f = forms.data;
  const state = states.data.accounts[0];
  const raw = state?.address ?? f.raw_form.toUpperCase();
  const book = states.data.address_book[raw];
  const friendly = book?.user_friendly ?? f.bounceable.b64url;
  const wallet = wallets.data?.wallets[0];
  const interfaces = state?.interfaces ?? [];
  const kind = wallet?.is_wallet ? wallet.wallet_type : interfaceLabel(interfaces);
  const status = state?.status ?? 'nonexist';
  return (
    <div className="space-y-4">
      <PageTitle sub={<Copyable value={friendly} label="address" />}>
        Account {kind && <Badge>{kind}</Badge>}
      </PageTitle>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_auto]">
        <Card title="Overview" id="overview">
          <Fields
            rows={[
              ['Balance', <Amount key="b" value={state?.balance ?? '0'} />],
              // The index's balance is as of the account's last indexed transaction; this one is read now.
              ['Live balance', <LiveBalance key="lb" address={address} />],
              ['Status', status],
              ['Contract', kind ?? (status === 'active' ? 'unknown contract' : 'no code')],
              ...(interfaces.length ? ([['Interfaces', <span key="i" className="flex flex-wrap gap-1">{interfaces.map((i) => <Badge key={i}>{i.trim()}</Badge>)}</span>]] as [string, React.ReactNode][]) : []),
              ...(wallet?.seqno !== undefined ? ([['Wallet seqno', wallet.seqno]] as [string, React.ReactNode][]) : []),
              ...(wallet?.wallet_id !== undefined ? ([['Wallet id', wallet.wallet_id]] as [string, React.ReactNode][]) : []),
              [
                'Last activity',
                state?.last_transaction_hash ? (
                  <Link key="l" href={`/tx/${toUrlSafe(state.last_transaction_hash)}`} className="font-mono text-sm text-brand-600 hover:underline dark:text-brand-500">
                    lt {state.last_transaction_lt}
                  </Link>
                ) : (
                  'never (the index has no transaction of this account)'
                ),
              ],
            ]}
          />
        </Card>
        <Card title="QR code" id="qr">
          <div className="flex justify-center">
            <QrCode value={`ton://transfer/${friendly}`} label={`QR code of ton://transfer/${friendly}`} />
          </div>
        </Card>
      </div>
      {interfaces.includes(WALLET_VESTING) && <AccountVesting address={address} />}
      {state && interfaces.includes(MULTISIG_V2) && <MultisigWalletSection address={state.address} />}
      {state && interfaces.includes(MULTISIG_ORDER_V2) && <MultisigOrderSection address={state.address} />}
      <AccountJettons address={address} />
      <AccountActivity address={address} filter={activity} cursor={activityCursor} base={accountHref(address, { cursor })} />
      <Card title="Address forms" id="forms">
        <Fields
          rows={[
            ['Raw', <Copyable key="r" value={f.raw_form} label="raw address" />],
            ['Bounceable (url-safe)', <Copyable key="bu" value={f.bounceable.b64url} label="bounceable address" />],
            ['Bounceable (base64)', <Copyable key="b" value={f.bounceable.b64} label="bounceable base64 address" />],
            ['Non-bounceable (url-safe)', <Copyable key="nu" value={f.non_bounceable.b64url} label="non-bounceable address" />],
            ['Non-bounceable (base64)', <Copyable key="n" value={f.non_bounceable.b64} label="non-bounceable base64 address" />],
          ]}
        />
      </Card>
      {state && (
        <Card title="Code and data" id="code">
          <Fields
            rows={[
              ['Code hash', state.code_hash ? <Copyable key="c" value={state.code_hash} label="code hash" /> : '—'],
              ['Data hash', state.data_hash ? <Copyable key="d" value={state.data_hash} label="data hash" /> : '—'],
              ['State hash', <Copyable key="s" value={state.account_state_hash} label="state hash" />],
              ...(state.frozen_hash ? ([['Frozen hash', <Copyable key="f" value={state.frozen_hash} label="frozen hash" />]] as [string, React.ReactNode][]) : []),
              [
                'Download',
                <span key="dl" className="flex flex-wrap gap-3">
                  {state.code_boc ? <BocDownload boc={state.code_boc} name={`code-${toUrlSafe(friendly)}.boc`} label="Code (.boc)" /> : <span>no code</span>}
                  {state.data_boc ? <BocDownload boc={state.data_boc} name={`data-${toUrlSafe(friendly)}.boc`} label="Data (.boc)" /> : <span>no data</span>}
                </span>,
              ],
            ]}
          />
        </Card>
      )}
      <AccountNfts address={address} />
      <AccountDomains address={address} />
      <TxSection
        title="Transactions"
        filter={{ account: address }}
        cursor={cursor}
        base={accountHref(address, { activity, activity_cursor: activityCursor })}
        showAccount={false}
      />
      {status === 'active' && (
        <Card title="Run a get-method" id="get-method">
          <GetMethodRunner address={friendly} interfaces={interfaces} />
        </Card>
      )}
    </div>
  );
}
