import type { ReactNode } from 'react';
import type { ActionJson } from '@/lib/api/v3/models/actions';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { JettonMasterJson } from '@/lib/api/v3/models/jettons';
import { actionTypeName } from '@/lib/format/action';
import { jettonDisplay } from '@/lib/format/jetton';
import { MULTISIG_EXIT } from '@/lib/ton/multisig-codes';
import { Address } from './Address';
import { Amount } from './Amount';
import { ChainTextPreview } from './ChainText';
import { JettonLink } from './Jetton';

type Masters = ReadonlyMap<string, JettonMasterJson>;

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** A jetton amount in the jetton's decimals and symbol; without its metadata, the raw units, said so. */
function JettonAmount({ value, master, masters, book }: { value: unknown; master: string | null; masters: Masters; book: AddressBookJson }) {
  const amount = str(value);
  if (!amount) return <span className="text-slate-500">an amount</span>;
  const info = master ? masters.get(master) : undefined;
  if (!info) {
    return (
      <span className="inline-flex flex-wrap items-center gap-1">
        <Amount value={amount} decimals={0} symbol="units of" /> {master ? <JettonLink master={master} book={book} /> : 'a jetton'}
      </span>
    );
  }
  const d = jettonDisplay(info.jetton_content);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Amount value={amount} decimals={d.decimals} symbol="" maxFraction={4} /> <JettonLink master={master!} info={info} book={book} />
    </span>
  );
}

/** Why an order refused an approval (multisig-contract-v2's exit codes). */
function multisigExitReason(code: number): string {
  if (code === MULTISIG_EXIT.alreadyApproved) return 'already approved';
  if (code === MULTISIG_EXIT.expired) return 'the order expired';
  if (code === MULTISIG_EXIT.alreadyExecuted) return 'already executed';
  if (code === MULTISIG_EXIT.unauthorizedSign) return 'not a signer';
  return `exit code ${code}`;
}

/** An amount in TON, or in a jetton when `asset` names one (DEX legs: null asset is TON). */
function AssetAmount({ value, asset, masters, book }: { value: unknown; asset: unknown; masters: Masters; book: AddressBookJson }) {
  const a = str(asset);
  return a ? <JettonAmount value={value} master={a} masters={masters} book={book} /> : <Amount value={str(value) ?? '0'} maxFraction={4} />;
}

/**
 * One action in plain words — "alice sent 5 TON to bob", "alice swapped 10 USDT for 2.1 TON on stonfi" —
 * with every account a link, amounts in their asset's units, and comments shown inert.
 */
export function ActionLine({ action, book, masters }: { action: ActionJson; book: AddressBookJson; masters: Masters }) {
  const d = action.details;
  const A = (key: string) => <Address raw={str(d[key])} book={book} />;
  const comment = str(d.comment);
  const encrypted = d.encrypted === true || d.is_encrypted_comment === true;
  let words: ReactNode;
  switch (action.type) {
    case 'ton_transfer':
    case 'extra_currency_transfer':
      words = <>{A('source')} sent <Amount value={str(d.value) ?? '0'} maxFraction={4} /> to {A('destination')}</>;
      break;
    case 'jetton_transfer':
      words = <>{A('sender')} sent <JettonAmount value={d.amount} master={str(d.asset)} masters={masters} book={book} /> to {A('receiver')}</>;
      break;
    case 'jetton_mint':
      words = <><JettonAmount value={d.amount} master={str(d.asset)} masters={masters} book={book} /> minted to {A('receiver')}</>;
      break;
    case 'jetton_burn':
      words = <>{A('owner')} burned <JettonAmount value={d.amount} master={str(d.asset)} masters={masters} book={book} /></>;
      break;
    case 'jetton_swap': {
      const inLeg = (d.dex_incoming_transfer ?? {}) as Record<string, unknown>;
      const outLeg = (d.dex_outgoing_transfer ?? {}) as Record<string, unknown>;
      words = (
        <>
          {A('sender')} swapped <AssetAmount value={inLeg.amount} asset={d.asset_in} masters={masters} book={book} /> for{' '}
          <AssetAmount value={outLeg.amount} asset={d.asset_out} masters={masters} book={book} /> on {str(d.dex) ?? 'a DEX'}
        </>
      );
      break;
    }
    case 'nft_transfer':
    case 'nft_purchase':
      words = d.is_purchase ? (
        <>{A('new_owner')} bought NFT {A('nft_item')} for <Amount value={str(d.price) ?? '0'} maxFraction={4} /></>
      ) : (
        <>{str(d.old_owner) ? A('old_owner') : 'someone'} transferred NFT {A('nft_item')} to {A('new_owner')}</>
      );
      break;
    case 'nft_put_on_sale':
      words = <>{A('owner')} put NFT {A('nft_item')} on sale for <Amount value={str(d.full_price) ?? '0'} maxFraction={4} /> ({A('sale_address')})</>;
      break;
    case 'nft_put_on_auction':
    case 'teleitem_start_auction':
      words = (
        <>
          {A('owner')} put NFT {A('nft_item')} on auction{str(d.auction_address) ? <> ({A('auction_address')})</> : null}
          {str(d.min_bid) ? <>, bids from <Amount value={str(d.min_bid)!} maxFraction={4} /></> : null}
        </>
      );
      break;
    case 'auction_bid':
      words = <>{A('bidder')} bid <Amount value={str(d.amount) ?? '0'} maxFraction={4} /> for NFT {A('nft_item')} at {A('auction')}</>;
      break;
    case 'auction_outbid':
      words = <>{A('bidder')} was outbid by {A('new_bidder')} for NFT {A('nft_item')}: <Amount value={str(d.amount) ?? '0'} maxFraction={4} /> back from {A('auction_address')}</>;
      break;
    case 'nft_cancel_sale':
      words = <>{A('owner')} cancelled the sale of NFT {A('nft_item')} ({A('sale_address')})</>;
      break;
    case 'nft_update_sale':
      words = <>{A('source')} repriced NFT {A('nft_address')} to <Amount value={str(d.full_price) ?? '0'} maxFraction={4} /> ({A('sale_contract')})</>;
      break;
    case 'nft_cancel_auction':
    case 'teleitem_cancel_auction':
      words = <>{A('owner')} cancelled the auction of NFT {A('nft_item')}{str(d.auction_address) ? <> ({A('auction_address')})</> : null}</>;
      break;
    case 'nft_finish_auction':
      words = <>{A('owner')} finished the auction of NFT {A('nft_item')} ({A('auction_address')})</>;
      break;
    case 'nft_mint':
      words = <>NFT {A('nft_item')} minted{str(d.nft_collection) ? <> in {A('nft_collection')}</> : null}{str(d.owner) ? <> for {A('owner')}</> : null}</>;
      break;
    case 'contract_deploy':
      words = <>{A('source')} deployed {A('destination')}</>;
      break;
    case 'call_contract':
      words = <>{A('source')} called {A('destination')}{str(d.opcode) ? <> (operation <span className="font-mono">{str(d.opcode)}</span>)</> : null} with <Amount value={str(d.value) ?? '0'} maxFraction={4} /></>;
      break;
    case 'change_dns':
    case 'delete_dns':
    case 'renew_dns':
      words = <>{A('source')} {action.type === 'renew_dns' ? 'renewed' : action.type === 'delete_dns' ? 'deleted a record of' : 'changed a record of'} the domain {A('asset')}</>;
      break;
    case 'stake_deposit':
    case 'stake_withdrawal':
    case 'stake_withdrawal_request':
      words = (
        <>
          {A('stake_holder')} {action.type === 'stake_deposit' ? 'staked' : action.type === 'stake_withdrawal' ? 'withdrew' : 'asked to withdraw'}{' '}
          {str(d.amount) ? <Amount value={str(d.amount)!} maxFraction={4} /> : 'a stake'} {action.type === 'stake_deposit' ? 'in' : 'from'} {A('pool')}
          {str(d.provider) ? ` (${str(d.provider)})` : ''}
        </>
      );
      break;
    case 'multisig_create_order':
      words = (
        <>
          {A('source')} created order #{str(d.order_seqno) ?? '?'} in multisig {A('destination')}
          {d.is_signed_by_creator === true ? ' and approved it' : null}
        </>
      );
      break;
    case 'multisig_approve':
      words = (
        <>
          {A('source')} approved order {A('destination')}
          {typeof d.exit_code === 'number' && d.exit_code !== 0 ? ` (rejected: ${multisigExitReason(d.exit_code)})` : null}
        </>
      );
      break;
    case 'multisig_execute':
      words = <>Order #{str(d.order_seqno) ?? '?'} ({A('source')}) was executed by multisig {A('destination')} with {typeof d.approvals_num === 'number' ? d.approvals_num : 'its'} approvals</>;
      break;
    case 'tick_tock':
      words = <>The chain ran a tick-tock transaction</>;
      break;
    default:
      words = (
        <>
          {actionTypeName(action.type)}
          {str(d.source) ? <> by {A('source')}</> : null}
          {str(d.destination) ? <> to {A('destination')}</> : null}
        </>
      );
  }
  return (
    <div className="flex min-w-0 flex-col gap-1" data-testid="action">
      <div className="flex min-w-0 flex-wrap items-center gap-x-1.5 gap-y-1 text-sm">
        <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">{actionTypeName(action.type)}</span>
        {action.success === false && (
          <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-900/50 dark:text-red-300">
            <span aria-hidden="true">✕</span> Failed
          </span>
        )}
        {words}
      </div>
      {(comment || encrypted) && (
        <span className="min-w-0 truncate text-xs italic text-slate-600 dark:text-slate-400">
          {encrypted ? 'encrypted comment' : <><span className="sr-only">Comment: </span><ChainTextPreview text={comment!} /></>}
        </span>
      )}
    </div>
  );
}
