// A subscription as a client sends it (SSE's JSON body or query, a WebSocket `subscribe`), checked and
// normalized: addresses in any form become raw `wc:HEX`, trace hashes standard base64, action-type
// shortcuts their types. Every refusal is one sentence naming the field, as toncenter words them.
import { z } from 'zod';
import { invalidActionTypeParam, supportedActionTypes } from '../api/v3/action-types';
import { parseAddress, rawUpper, WORKCHAINS } from '../ton/address';
import { FINALITIES, type Finality } from './finality';
import { EVENT_TYPES, RequestId, type EventType, type RequestIdJson } from './protocol';
import { hashToBase64, parseHash } from '../ton/hash-input';

export interface Subscription {
  types: ReadonlySet<EventType>;
  /** Raw addresses (`0:ABC…`). */
  addresses: ReadonlySet<string>;
  /** trace_external_hash_norm values, standard base64. */
  traces: ReadonlySet<string>;
  minFinality: Finality;
  includeAddressBook: boolean;
  includeMetadata: boolean;
  /** action_types: only these (null: any). */
  actionTypes: ReadonlySet<string> | null;
  /** supported_action_types expanded (versions and groups into types). */
  supported: ReadonlySet<string>;
  /** The options that shape a notification's content: subscribers with the same shape share one serialization. */
  shape: string;
}

export type Parsed<T> = { ok: true; value: T; id?: RequestIdJson } | { ok: false; error: string; id?: RequestIdJson };

const list = z.array(z.string()).nullish();
const flag = z.boolean().nullish();

/** The request fields (unknown fields are ignored, as toncenter does; `operation` is the WebSocket envelope's). */
export const SubscriptionRequest = z.object({
  id: RequestId.nullish().describe('any string or number: echoed in the reply (SSE: in the `connected` event)'),
  types: list.describe(`required: what to be sent — ${EVENT_TYPES.join(', ')} (blocks is Atlas's own: one notification per indexed masterchain block)`),
  addresses: list.describe('accounts in any form (raw or user-friendly); required for transactions, actions, account_state_change, jettons_change and trace_invalidated by account'),
  trace_external_hash_norms: list.describe('traces by the normalized hash of their external message (base64, url-safe base64 or hex); required for trace'),
  min_finality: z.string().nullish().describe(`${FINALITIES.join(' | ')}; default finalized: the lowest finality sent (a trace is sent again as its finality rises)`),
  include_address_book: flag.describe('add address_book for the addresses a notification names (default false)'),
  include_metadata: flag.describe('add token metadata for the addresses a notification names (default false)'),
  action_types: list.describe('only actions of these types (default: any)'),
  supported_action_types: list.describe('action types the client understands, as v3 takes them (default latest, or the X-Actions-Version header)'),
});

export const UnsubscribeRequest = z.object({
  id: RequestId.nullish().describe('echoed in the reply'),
  addresses: list.describe('accounts to drop from the subscription'),
  trace_external_hash_norms: list.describe('traces to drop from the subscription'),
});

/** zod's first issue as "field: problem" ("addresses: expected a list of strings"). */
function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join('.') : 'request';
  const what = issue.code === 'invalid_type' ? `expected ${issue.expected === 'array' ? 'a list' : issue.expected}` : issue.message;
  return `${field}: ${what}`;
}

const TRACE_TYPES = new Set<EventType>(['trace']);
/** Types that need no address: `trace` (by trace hash) and Atlas's `blocks`. */
const ADDRESSLESS = new Set<EventType>(['trace', 'blocks']);

/** A 32-byte hash as every Atlas API reads one (lib/ton/hash-input.ts), as standard base64; null for anything else. */
export function normalizeHash(text: string): string | null {
  const hash = parseHash(text.trim());
  return hash ? hashToBase64(hash) : null;
}

/** Raw addresses of `inputs`, deduplicated in order, or the first one that is not an address. */
export function rawAddresses(inputs: readonly string[]): { ok: true; value: string[] } | { ok: false; error: string } {
  const out = new Set<string>();
  for (const input of inputs) {
    const p = parseAddress(input.trim());
    if (!p) return { ok: false, error: `invalid address: ${JSON.stringify(input.slice(0, 100))}` };
    if (!WORKCHAINS.includes(p.address.workChain)) return { ok: false, error: `invalid address: ${JSON.stringify(input.slice(0, 100))} is in workchain ${p.address.workChain}, which does not exist` };
    out.add(rawUpper(p.address));
  }
  return { ok: true, value: [...out] };
}

function traceHashes(inputs: readonly string[]): { ok: true; value: string[] } | { ok: false; error: string } {
  const out = new Set<string>();
  for (const input of inputs) {
    if (!input.trim()) return { ok: false, error: 'trace_external_hash_norms contains an empty value' };
    const h = normalizeHash(input);
    if (!h) return { ok: false, error: `invalid trace_external_hash_norm: ${JSON.stringify(input.slice(0, 100))} (a 32-byte hash in base64 or hex)` };
    out.add(h);
  }
  return { ok: true, value: [...out] };
}

/**
 * Checks a subscription request. `maxAddresses`: addresses and trace hashes together; `actionsVersion`:
 * the X-Actions-Version header, used when the request names no supported_action_types.
 */
export function parseSubscription(input: unknown, opts: { maxAddresses: number; actionsVersion?: string | null }): Parsed<Subscription> {
  const parsed = SubscriptionRequest.safeParse(input);
  if (!parsed.success) return { ok: false, error: issueText(parsed.error), id: idOf(input) };
  const r = parsed.data;
  const id = r.id ?? undefined;
  const fail = (error: string): Parsed<Subscription> => ({ ok: false, error, id });
  if (!r.types?.length) return fail('types are required for subscription');
  const unknown = r.types.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined) return fail(`invalid event type: ${JSON.stringify(unknown.slice(0, 100))} (one of ${EVENT_TYPES.join(', ')})`);
  const types = new Set(r.types as EventType[]);
  const addresses = rawAddresses(r.addresses ?? []);
  if (!addresses.ok) return fail(addresses.error);
  const traces = traceHashes(r.trace_external_hash_norms ?? []);
  if (!traces.ok) return fail(traces.error);
  const wantsTrace = [...types].some((t) => TRACE_TYPES.has(t));
  if (traces.value.length && !wantsTrace && !types.has('trace_invalidated')) return fail('trace_external_hash_norms requires type "trace"');
  if (wantsTrace && !traces.value.length) return fail('trace_external_hash_norms are required for trace subscription');
  const needsAddresses = [...types].some((t) => !ADDRESSLESS.has(t) && !(t === 'trace_invalidated' && traces.value.length));
  if (needsAddresses && !addresses.value.length) return fail('addresses are required for subscription');
  const named = addresses.value.length + traces.value.length;
  if (named > opts.maxAddresses) return fail(`too many addresses: ${named} > max ${opts.maxAddresses} (addresses and trace_external_hash_norms together)`);
  if (r.min_finality != null && !(FINALITIES as readonly string[]).includes(r.min_finality)) {
    return fail(`invalid min_finality: ${JSON.stringify(r.min_finality.slice(0, 100))} (one of ${FINALITIES.join(', ')})`);
  }
  const badType = invalidActionTypeParam('action_types', r.action_types ?? undefined) ?? invalidActionTypeParam('supported_action_types', r.supported_action_types ?? undefined);
  if (badType) return fail(badType);
  const supported = supportedActionTypes(r.supported_action_types?.length ? r.supported_action_types : undefined, r.supported_action_types?.length ? null : (opts.actionsVersion ?? null));
  const actionTypes = r.action_types?.length ? new Set(r.action_types) : null;
  const includeAddressBook = r.include_address_book ?? false;
  const includeMetadata = r.include_metadata ?? false;
  const sub: Subscription = {
    types,
    addresses: new Set(addresses.value),
    traces: new Set(traces.value),
    minFinality: (r.min_finality as Finality | null | undefined) ?? 'finalized',
    includeAddressBook,
    includeMetadata,
    actionTypes,
    supported: new Set(supported),
    shape: `${+includeAddressBook}${+includeMetadata}|${[...(actionTypes ?? [])].sort().join(',')}|${supported.join(',')}`,
  };
  return { ok: true, value: sub, id };
}

/** Everything that decides what a subscription is sent: subscriptions with the same key get the same notifications. */
export function subscriptionKey(sub: Subscription): string {
  const sorted = (xs: Iterable<string>) => [...xs].sort().join(',');
  return `${sorted(sub.types)}|${sub.minFinality}|${sub.shape}|${sorted(sub.addresses)}|${sorted(sub.traces)}`;
}

/** An `unsubscribe` request: the raw addresses and trace hashes to drop (at least one of them). */
export function parseUnsubscribe(input: unknown): Parsed<{ addresses: string[]; traces: string[] }> {
  const parsed = UnsubscribeRequest.safeParse(input);
  if (!parsed.success) return { ok: false, error: issueText(parsed.error), id: idOf(input) };
  const id = parsed.data.id ?? undefined;
  const addresses = rawAddresses(parsed.data.addresses ?? []);
  if (!addresses.ok) return { ok: false, error: addresses.error, id };
  const traces = traceHashes(parsed.data.trace_external_hash_norms ?? []);
  if (!traces.ok) return { ok: false, error: traces.error, id };
  if (!addresses.value.length && !traces.value.length) return { ok: false, error: 'addresses or trace_external_hash_norms are required', id };
  return { ok: true, value: { addresses: addresses.value, traces: traces.value }, id };
}

/** The same subscription, without these addresses and trace hashes. */
export function withoutTargets(sub: Subscription, drop: { addresses: string[]; traces: string[] }): Subscription {
  const addresses = new Set(sub.addresses);
  const traces = new Set(sub.traces);
  for (const a of drop.addresses) addresses.delete(a);
  for (const t of drop.traces) traces.delete(t);
  return { ...sub, addresses, traces };
}

const LIST_FIELDS = ['types', 'addresses', 'trace_external_hash_norms', 'action_types', 'supported_action_types'] as const;
const FLAG_FIELDS = ['include_address_book', 'include_metadata'] as const;

/**
 * A subscription given as a query string (GET, for the browser's EventSource, which cannot POST): list
 * fields repeated or comma-separated, flags `true`/`false`. The result goes through parseSubscription.
 */
export function subscriptionFromQuery(q: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of LIST_FIELDS) {
    const values = q.getAll(f).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    if (values.length) out[f] = values;
  }
  for (const f of FLAG_FIELDS) {
    const v = q.get(f);
    if (v !== null) out[f] = v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v;
  }
  const minFinality = q.get('min_finality');
  if (minFinality !== null) out.min_finality = minFinality;
  const id = q.get('id');
  if (id !== null) out.id = id;
  return out;
}

function idOf(input: unknown): RequestIdJson | undefined {
  const id = input && typeof input === 'object' ? (input as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
