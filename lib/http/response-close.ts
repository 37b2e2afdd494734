// What to release when a response is over (answered, cut, or left by its client), on one 'close'
// listener per response. Each layer a request passes has something to release then — the edge's deadline
// and request slot, the page guard's client share, render slot and queue place, the page cache's copy —
// and one listener each, on top of the several Next adds to every render, went past Node's default of 10
// and printed MaxListenersExceededWarning for ServerResponse: the shape of a leak, and it hid real ones.
import type { ServerResponse } from 'node:http';

const waiting = new WeakMap<ServerResponse, (() => void)[]>();

/** Runs `fn` once `res` closes, after those added before it; never if it has closed already (as res.once('close') would). */
export function onResponseClose(res: ServerResponse, fn: () => void): void {
  const listed = waiting.get(res);
  if (listed) return void listed.push(fn);
  const fns = [fn];
  waiting.set(res, fns);
  res.once('close', () => {
    waiting.delete(res);
    for (const f of fns) f();
  });
}
