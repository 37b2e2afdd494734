'use client';

// The Streaming API reference's console: a subscription as JSON, sent over a WebSocket opened from the
// page to this server (/api/streaming/v2/ws), and what comes back — the reply, then notifications as they
// happen, newest first (the last 20 kept).
import { useEffect, useRef, useState } from 'react';
import { Card } from '../ui/Card';

const KEPT = 20;
const inputClass =
  'w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm dark:border-slate-700 dark:bg-slate-950 focus-visible:outline-2 focus-visible:outline-brand-500';
const buttonClass =
  'rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';

type State = 'closed' | 'connecting' | 'open';

export function StreamConsole() {
  const [text, setText] = useState('{\n  "types": ["blocks"],\n  "min_finality": "finalized"\n}');
  const [state, setState] = useState<State>('closed');
  const [received, setReceived] = useState<{ n: number; line: string }[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const count = useRef(0);
  useEffect(() => () => socket.current?.close(), []);

  const keep = (line: string) => setReceived((list) => [{ n: ++count.current, line }, ...list].slice(0, KEPT));
  const connect = () => {
    let sub: unknown;
    try {
      sub = JSON.parse(text);
    } catch (err) {
      return setProblem(`the subscription is not JSON: ${(err as Error).message}`);
    }
    setProblem(null);
    setReceived([]);
    socket.current?.close();
    const ws = (socket.current = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/streaming/v2/ws`));
    setState('connecting');
    ws.onopen = () => {
      setState('open');
      ws.send(JSON.stringify({ id: 'console', operation: 'subscribe', ...(sub && typeof sub === 'object' ? sub : {}) }));
    };
    ws.onmessage = (e) => keep(String(e.data));
    ws.onclose = (e) => {
      if (socket.current !== ws) return;
      setState('closed');
      if (e.code !== 1000 && e.code !== 1005) keep(`closed: ${e.code}${e.reason ? ` ${e.reason}` : ''}`);
    };
  };
  const disconnect = () => {
    socket.current?.close(1000);
    socket.current = null;
    setState('closed');
  };

  return (
    <Card title="Try it" id="console">
      <form className="space-y-3" onSubmit={(e) => (e.preventDefault(), connect())}>
        <label className="grid gap-1 text-sm">
          Subscription (sent as a WebSocket subscribe)
          <textarea className={`${inputClass} h-28`} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={buttonClass}>
            {state === 'closed' ? 'Connect' : 'Subscribe again'}
          </button>
          <button type="button" className={buttonClass} onClick={disconnect} disabled={state === 'closed'}>
            Disconnect
          </button>
          <span className="text-sm text-slate-600 dark:text-slate-400" role="status">
            {state}
          </span>
        </div>
        {problem && <p className="text-sm text-red-700 dark:text-red-400">{problem}</p>}
      </form>
      {received.length > 0 && (
        <ol className="mt-3 max-h-96 space-y-1 overflow-auto rounded-md bg-slate-100 p-3 font-mono text-xs dark:bg-slate-950" aria-label="Received" data-testid="stream-console-received">
          {received.map(({ n, line }) => (
            <li key={n} className="break-all">
              {line}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
