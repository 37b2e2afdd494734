'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { EmulateResponseJson } from '@/lib/api/v3/models/traces';
import { ApiError, fetchResource } from '@/lib/client/fetcher';
import { explainRefusal } from '@/lib/format/exit-codes';
import { Address } from '../entity/Address';
import { Amount } from '../entity/Amount';
import { Card, PageTitle, Status } from '../ui/Card';
import { ErrorNote } from '../ui/States';
import { failedCount, TraceDetails } from './TraceView';

const input =
  'w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950';

/**
 * Paste a signed external message and see what it would do before sending it: POST /api/v3/emulate runs
 * its whole trace against the latest states (never sending it) and this page shows the actions in words,
 * the fees, every transaction, and why anything fails.
 */
export function EmulateView() {
  const id = useId();
  const [boc, setBoc] = useState('');
  const run = useMutation({ mutationFn: (text: string) => fetchResource('emulate', { boc: text }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run.mutate(boc.trim());
  };
  return (
    <div className="space-y-4">
      <PageTitle sub="See what a signed message would do before you send it. Nothing is sent: Atlas emulates the whole trace against the chain's latest state.">Emulate a message</PageTitle>
      <Card title="External message" id="message">
        <form onSubmit={submit} className="space-y-3" aria-label="Emulate an external message">
          <div>
            <label htmlFor={`${id}-boc`} className="mb-1 block text-sm font-medium">
              Signed external message (BoC in base64 or hex)
            </label>
            <textarea
              id={`${id}-boc`}
              className={`${input} h-32 break-all font-mono`}
              value={boc}
              onChange={(e) => setBoc(e.target.value)}
              required
              spellCheck={false}
              autoComplete="off"
              placeholder="te6cckEBAgEA… or b5ee9c72…"
            />
          </div>
          <button type="submit" disabled={run.isPending || !boc.trim()} className="rounded-md bg-brand-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60">
            {run.isPending ? 'Emulating…' : 'Emulate'}
          </button>
        </form>
      </Card>
      <div aria-live="polite" className="space-y-4">
        {run.error &&
          (run.error instanceof ApiError && run.error.status === 422 ? (
            <p role="alert" data-testid="emulate-error" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              Atlas cannot emulate this: {run.error.message}
            </p>
          ) : (
            <ErrorNote error={run.error} />
          ))}
        {run.data && !run.isPending && <EmulateResult result={run.data} />}
      </div>
    </div>
  );
}

function EmulateResult({ result }: { result: EmulateResponseJson }) {
  const book = result.address_book;
  if (!result.trace) {
    const interfaces = book[result.destination]?.interfaces ?? [];
    return (
      <Card title="Result" id="result">
        <div className="space-y-2 text-sm" data-testid="emulate-result">
          <p>
            <Status ok={false} failText="Refused" /> The chain would not accept this message: nothing would happen and no fee would be paid.
          </p>
          <p data-testid="refusal">
            <Address raw={result.destination} book={book} /> refuses it with {explainRefusal(result.rejected?.reason ?? '', interfaces)}
          </p>
        </div>
      </Card>
    );
  }
  const failed = failedCount(result.trace);
  return (
    <>
      <Card title="Result" id="result">
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="emulate-result">
          <Status ok={failed === 0} okText="Every transaction would succeed" failText={`${failed} transaction${failed > 1 ? 's' : ''} would fail`} />
          <span>
            Fees in all: <Amount value={result.total_fees} maxFraction={9} />
          </span>
          {result.truncated && <span className="text-amber-800 dark:text-amber-300">The emulation stopped at its limits: later steps are not shown.</span>}
        </p>
      </Card>
      <TraceDetails
        trace={result.trace}
        book={book}
        emulated
        rawFrom="POST /api/v3/emulate"
        extraFields={[
          ['Sent to', <Address key="d" raw={result.destination} book={book} />],
          ['Fees in all', <Amount key="f" value={result.total_fees} maxFraction={9} />],
          ['State of the chain', `as of masterchain block #${result.mc_seqno}`],
        ]}
      />
    </>
  );
}
