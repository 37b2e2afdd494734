// What a jetton says about itself (TEP-64 content as /jetton/masters returns it: the on-chain attributes,
// or {uri} for off-chain content), reduced to what a page shows. The content is written by strangers:
// decimals outside TEP-64's range fall back to the default rather than misprinting every amount, and an
// image is never fetched by the browser from an arbitrary host (pages show a placeholder instead).
import type { MessageJson, MetadataJson } from '@/lib/api/v3/models';

export interface JettonDisplay {
  name: string | undefined;
  symbol: string | undefined;
  /** TEP-64: 9 when not given. */
  decimals: number;
  description: string | undefined;
  /** Off-chain metadata URI, shown as text. */
  uri: string | undefined;
}

const text = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);

export function jettonDisplay(content: Record<string, string> | null | undefined): JettonDisplay {
  const c = content ?? {};
  const d = c.decimals?.trim();
  const decimals = d && /^\d{1,3}$/.test(d) && Number(d) <= 255 ? Number(d) : 9;
  return { name: text(c.name), symbol: text(c.symbol), decimals, description: text(c.description), uri: text(c.uri) };
}

/** The label a jetton goes by: its symbol, else its name, else nothing (the caller shows the address). */
export const jettonLabel = (d: JettonDisplay): string | undefined => d.symbol ?? d.name;

/**
 * The jetton a message's `amount` counts, from a metadata side map: the jetton wallet among its parties
 * (a transfer goes to one, an internal transfer or a notification comes from one) names its master, and
 * the master's token_info gives decimals and symbol. Undefined when the map does not know it.
 */
export function jettonOfMessage(m: MessageJson, metadata: MetadataJson | undefined): { decimals: number; symbol: string | undefined } | undefined {
  if (!metadata) return undefined;
  for (const party of [m.destination, m.source]) {
    const info = party ? metadata[party]?.token_info[0] : undefined;
    const master = info?.type === 'jetton_wallets' ? info.extra?.jetton : info?.type === 'jetton_masters' ? party : undefined;
    const m0 = typeof master === 'string' ? metadata[master]?.token_info[0] : undefined;
    if (!m0 || m0.type !== 'jetton_masters') continue;
    const d = jettonDisplay({ ...(m0.extra as Record<string, string> | undefined), symbol: m0.symbol ?? '', name: m0.name ?? '' });
    return { decimals: d.decimals, symbol: d.symbol ?? d.name };
  }
  return undefined;
}
