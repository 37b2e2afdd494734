// A decoded message body (message_content.decoded, lib/actions/bodies.ts) as rows for the message view:
// what each field is decides how it is shown (an account link, a TON amount, a comment, a nested body).
export type DecodedField =
  | { name: string; kind: 'address'; value: string }
  | { name: string; kind: 'ton'; value: string }
  /** An amount in the jetton's own base units (the view scales it by the jetton's decimals when known). */
  | { name: string; kind: 'jetton'; value: string }
  | { name: string; kind: 'comment'; value: string }
  | { name: string; kind: 'body'; value: string }
  | { name: string; kind: 'text'; value: string };

const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;
// Fields the TL-B schemas type as Coins of TON (jetton `amount` is in the jetton's own units).
const TON_FIELDS = new Set(['forward_ton_amount', 'forward_amount', 'ton_amount']);
// Bodies whose `amount` is jettons (TEP-74 transfer, internal transfer, notification, burn and its notification).
const JETTON_BODIES = new Set(['jetton_transfer', 'jetton_internal_transfer', 'jetton_notify', 'jetton_burn', 'jetton_burn_notification']);

function field(name: string, v: unknown, type: string): DecodedField {
  if (typeof v === 'string' && name === 'amount' && JETTON_BODIES.has(type) && /^\d+$/.test(v)) return { name, kind: 'jetton', value: v };
  if (typeof v === 'string' && RAW_ADDRESS.test(v)) return { name, kind: 'address', value: v };
  if (typeof v === 'string' && TON_FIELDS.has(name) && /^\d+$/.test(v)) return { name, kind: 'ton', value: v };
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (o['@type'] === 'text_comment' && typeof o.text === 'string') return { name, kind: 'comment', value: o.text };
    if (typeof o['@type'] === 'string') return { name, kind: 'body', value: o['@type'] === 'empty_cell' ? 'empty' : o['@type'] };
  }
  if (v === null) return { name, kind: 'text', value: '—' };
  return { name, kind: 'text', value: typeof v === 'string' ? v : JSON.stringify(v) };
}

/**
 * The constructor and fields of a decoded body, or undefined when there is none or it is a plain text
 * comment (the view shows comments on their own).
 */
export function decodedFields(decoded: Record<string, unknown> | null | undefined): { type: string; fields: DecodedField[] } | undefined {
  const type = decoded?.['@type'];
  if (!decoded || typeof type !== 'string' || type === 'text_comment') return undefined;
  const fields = Object.entries(decoded)
    .filter(([k]) => k !== '@type')
    // A ciphertext is bytes for the recipient only: flagged, not shown.
    .filter(([k]) => !(type === 'encrypted_text_comment' && k === 'cipher_text'))
    .map(([k, v]) => field(k, v, type));
  return { type, fields };
}
