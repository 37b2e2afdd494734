import Link from 'next/link';
import type { AddressBookJson } from '@/lib/api/v3/models/common';
import type { MessageJson } from '@/lib/api/v3/models/messages';
import { decodedFields, type DecodedField } from '@/lib/format/decoded';
import type { JettonUnits } from '@/lib/format/jetton';
import { opcodeName } from '@/lib/format/opcodes';
import { toUrlSafe } from '@/lib/format/hash';
import { messageComment } from '@/lib/format/tx';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { BocView } from '../entity/Boc';
import { ChainText } from '../entity/ChainText';
import { CopyButton } from '../entity/CopyButton';
import { Time } from '../entity/Time';
import { Badge, Fields } from '../ui/Card';

const yes = (v: boolean | null) => (v === null ? '—' : v ? 'yes' : 'no');

/** One field of a decoded body; strings written by the sender go through ChainText. */
function DecodedValue({ f, book, jetton }: { f: DecodedField; book: AddressBookJson; jetton?: JettonUnits }) {
  switch (f.kind) {
    case 'jetton':
      return jetton ? (
        <Amount value={f.value} decimals={jetton.decimals} symbol={jetton.symbol ?? 'jetton units'} />
      ) : (
        <span className="font-mono text-sm">
          {f.value} <span className="text-slate-600 dark:text-slate-400">base units</span>
        </span>
      );
    case 'address':
      return <Address raw={f.value} book={book} />;
    case 'ton':
      return <Amount value={f.value} />;
    case 'comment':
      return <ChainText text={f.value} label="This comment" />;
    case 'body':
      return <span className="font-mono text-xs">{f.value}</span>;
    case 'text':
      return <ChainText text={f.value} label="This value" />;
  }
}

/** One message: parties, value, flags, and its body decoded where we can, raw always. */
export function MessageView({ m, book, direction, jetton }: { m: MessageJson; book: AddressBookJson; direction: 'in' | 'out'; jetton?: JettonUnits }) {
  const text = messageComment(m);
  const body = decodedFields(m.message_content?.decoded);
  const op = m.opcode;
  const opName = m.decoded_opcode ?? opcodeName(op);
  const external = direction === 'in' ? m.source === null : m.destination === null;
  const hashId = toUrlSafe(m.hash);
  return (
    <div className="min-w-0 space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <Badge>{external ? (direction === 'in' ? 'external in' : 'external out (log)') : 'internal'}</Badge>
        {m.bounced && <Badge>bounced ↩</Badge>}
        {op && <Badge>{opName ? `${opName} (${op})` : `op ${op}`}</Badge>}
      </div>
      <Fields
        rows={[
          ['From', <Address key="f" raw={m.source} book={book} />],
          ['To', <Address key="t" raw={m.destination} book={book} />],
          ['Value', m.value === null ? '—' : <Amount key="v" value={m.value} />],
          ...(m.fwd_fee !== null ? ([['Forward fee', <Amount key="ff" value={m.fwd_fee} />]] as [string, React.ReactNode][]) : []),
          ...(m.import_fee !== null ? ([['Import fee', <Amount key="if" value={m.import_fee} />]] as [string, React.ReactNode][]) : []),
          ['Bounce flag', yes(m.bounce)],
          ['Bounced', yes(m.bounced)],
          ...(m.created_at ? ([['Created', <Time key="c" utime={m.created_at} />]] as [string, React.ReactNode][]) : []),
          ...(m.created_lt ? ([['Created lt', <span key="l" className="font-mono">{m.created_lt}</span>]] as [string, React.ReactNode][]) : []),
          [
            'Message hash',
            <span key="h" className="inline-flex max-w-full items-center gap-1">
              <span className="break-all font-mono text-xs">{m.hash}</span>
              <CopyButton value={m.hash} label="Copy message hash" />
            </span>,
          ],
          [
            'Body',
            <div key="b" className="min-w-0 space-y-1">
              {text !== undefined ? (
                // Framed and labelled, so text written by the sender never passes for a field of the page.
                <div data-testid="comment" className="rounded border-l-4 border-slate-400 bg-slate-100 px-2 py-1 text-sm dark:border-slate-500 dark:bg-slate-800">
                  <div className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">Comment</div>
                  <ChainText text={text} label="This comment" />
                </div>
              ) : (
                <p className="text-sm text-slate-600 dark:text-slate-400">{op ? (opName ? `Operation: ${opName}` : `Unknown operation ${op}`) : 'Empty body'}</p>
              )}
              {body && (
                <dl data-testid="decoded-body" className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                  {body.type === 'encrypted_text_comment' && <dd className="col-span-2 text-slate-600 dark:text-slate-400">Encrypted comment (only its recipient can read it)</dd>}
                  {body.fields.map((f) => (
                    <div key={f.name} className="contents">
                      <dt className="font-mono text-xs text-slate-500 dark:text-slate-400">{f.name}</dt>
                      <dd className="min-w-0 break-all">
                        <DecodedValue f={f} book={book} jetton={jetton} />
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
              {m.message_content && <BocView boc={m.message_content.body} name={`body-${hashId}.boc`} label="Raw body (BoC)" />}
            </div>,
          ],
          ...(m.init_state
            ? ([['Init state', <BocView key="i" boc={m.init_state.body} name={`init-${hashId}.boc`} label="State init (BoC)" />]] as [string, React.ReactNode][])
            : []),
        ]}
      />
      {direction === 'out' && !external && (
        <Link href={`/search?q=${encodeURIComponent(m.hash)}`} className="text-sm text-brand-600 underline dark:text-brand-500">
          Find the receiving transaction
        </Link>
      )}
    </div>
  );
}
