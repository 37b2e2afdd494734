'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { fetchResource } from '@/lib/client/fetcher';
import type { RunGetMethodResult, StackEntry } from '@/lib/client/registry';
import { explainComputeExit } from '@/lib/format/exit-codes';
import { ErrorNote } from '../ui/States';

type ArgType = 'num' | 'tvm.Cell' | 'tvm.Slice';
interface Arg {
  id: number;
  type: ArgType;
  value: string;
}

const input =
  'w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950';

/** Runs a get-method through POST /api/v2/runGetMethod with typed stack arguments. */
export function GetMethodRunner({ address, interfaces }: { address: string; interfaces: readonly string[] }) {
  const formId = useId();
  const [method, setMethod] = useState('seqno');
  const [args, setArgs] = useState<Arg[]>([]);
  const run = useMutation({
    mutationFn: (vars: { address: string; method: string; stack: StackEntry[] }) => fetchResource('runGetMethod', vars),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run.mutate({ address, method: method.trim(), stack: args.map((a) => [a.type, a.value.trim()] as StackEntry) });
  };
  const update = (id: number, patch: Partial<Arg>) => setArgs((list) => list.map((a) => (a.id === id ? { ...a, ...patch } : a)));
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Run a get-method">
      <div>
        <label htmlFor={`${formId}-method`} className="mb-1 block text-sm font-medium">
          Method name (or numeric id)
        </label>
        <input id={`${formId}-method`} className={`${input} font-mono`} value={method} onChange={(e) => setMethod(e.target.value)} required spellCheck={false} autoComplete="off" />
      </div>
      {args.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Arguments (top of the stack last)</legend>
          {args.map((a, i) => (
            <div key={a.id} className="flex flex-wrap items-center gap-2">
              <label className="sr-only" htmlFor={`${formId}-t${a.id}`}>
                Type of argument {i + 1}
              </label>
              <select id={`${formId}-t${a.id}`} className={`${input} w-32`} value={a.type} onChange={(e) => update(a.id, { type: e.target.value as ArgType })}>
                <option value="num">number</option>
                <option value="tvm.Cell">cell (BoC)</option>
                <option value="tvm.Slice">slice (BoC)</option>
              </select>
              <label className="sr-only" htmlFor={`${formId}-v${a.id}`}>
                Value of argument {i + 1}
              </label>
              <input
                id={`${formId}-v${a.id}`}
                className={`${input} min-w-0 flex-1 font-mono`}
                value={a.value}
                placeholder={a.type === 'num' ? '123 or 0x7b' : 'base64 BoC'}
                onChange={(e) => update(a.id, { value: e.target.value })}
              />
              <button type="button" onClick={() => setArgs((l) => l.filter((x) => x.id !== a.id))} className="rounded px-2 py-1 text-sm hover:bg-slate-200 dark:hover:bg-slate-800">
                Remove
              </button>
            </div>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => setArgs((l) => [...l, { id: (l.at(-1)?.id ?? 0) + 1, type: 'num', value: '' }])}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:border-brand-500 dark:border-slate-700"
        >
          Add argument
        </button>
        <button type="submit" disabled={run.isPending} className="rounded-md bg-brand-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60">
          {run.isPending ? 'Running…' : 'Run'}
        </button>
      </div>
      <div aria-live="polite">
        {run.error && <ErrorNote error={run.error} />}
        {run.data && <RunResult result={run.data} interfaces={interfaces} />}
      </div>
    </form>
  );
}

function RunResult({ result, interfaces }: { result: RunGetMethodResult; interfaces: readonly string[] }) {
  return (
    <div className="space-y-2 rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-950" data-testid="get-method-result">
      <p>
        Exit code <span className="font-mono">{result.exit_code}</span> — {explainComputeExit(result.exit_code, interfaces)} · gas used {result.gas_used}
      </p>
      {result.stack.length ? (
        <ol className="space-y-1">
          {result.stack.map((e, i) => (
            <li key={i} className="break-all font-mono">
              <span className="text-slate-500 dark:text-slate-400">{e[0]}</span> {stackValue(e)}
            </li>
          ))}
        </ol>
      ) : (
        <p>Empty stack.</p>
      )}
    </div>
  );
}

/** Numbers are shown in decimal too (the API answers hex); cells by their BoC. */
function stackValue([type, value]: StackEntry): string {
  if (type === 'num' && typeof value === 'string') {
    try {
      const neg = value.startsWith('-');
      const n = BigInt(neg ? value.slice(1) : value);
      return `${neg ? '-' : ''}${n.toString()} (${value})`;
    } catch {
      return value;
    }
  }
  if ((type === 'cell' || type === 'slice') && value && typeof value === 'object' && 'bytes' in value) return String((value as { bytes: string }).bytes);
  return JSON.stringify(value);
}
