// What a jetton says about itself (TEP-64 content as /jetton/masters returns it: the on-chain attributes,
// or {uri} for off-chain content), reduced to what a page shows. The content is written by strangers:
// decimals outside TEP-64's range fall back to the default rather than misprinting every amount, and an
// image is never fetched by the browser from an arbitrary host (pages show a placeholder instead).
import type { MetadataJson } from '@/lib/api/v3/models/common';
import type { MessageJson } from '@/lib/api/v3/models/messages';

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

/** Where a jetton's off-chain metadata stands on this server, from the v3 metadata side map. */
export type OffchainMetadata = 'fetched' | 'failed' | 'not fetched';

type TokenInfo = MetadataJson[string]['token_info'][number];

export function offchainMetadataState(info: TokenInfo | undefined): OffchainMetadata {
  return info?.valid === true ? 'fetched' : info?.valid === false ? 'failed' : 'not fetched';
}

/**
 * jettonDisplay with what the server fetched of off-chain metadata (the side map's token_info) filled in
 * under the on-chain attributes, which win, as TEP-64 says of semi-chain content.
 */
export function jettonDisplayWithMetadata(content: Record<string, string> | null | undefined, info: TokenInfo | undefined): JettonDisplay {
  if (info?.valid !== true) return jettonDisplay(content);
  const fetched: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...info.extra, name: info.name, symbol: info.symbol, description: info.description })) if (typeof v === 'string') fetched[k] = v;
  return jettonDisplay({ ...fetched, ...content });
}

/** The label a jetton goes by: its symbol, else its name, else nothing (the caller shows the address). */
export const jettonLabel = (d: JettonDisplay): string | undefined => d.symbol ?? d.name;

/** Decimals and symbol of a jetton, to show amounts of it. */
export interface JettonUnits {
  decimals: number;
  symbol: string | undefined;
}

/**
 * The jetton of a jetton wallet (or of a master itself), from a metadata side map: the wallet's entry
 * names its master, whose token_info gives decimals and symbol. Undefined when the map does not know it.
 */
export function jettonOfWallet(address: string, metadata: MetadataJson | undefined): JettonUnits | undefined {
  const info = metadata?.[address]?.token_info[0];
  const master = info?.type === 'jetton_wallets' ? info.extra?.jetton : info?.type === 'jetton_masters' ? address : undefined;
  const m = typeof master === 'string' ? metadata?.[master]?.token_info[0] : undefined;
  if (!m || m.type !== 'jetton_masters') return undefined;
  const d = jettonDisplay({ ...(m.extra as Record<string, string> | undefined), symbol: m.symbol ?? '', name: m.name ?? '' });
  return { decimals: d.decimals, symbol: d.symbol ?? d.name };
}

/** The jetton a message's `amount` counts: that of the jetton wallet among its parties (a transfer goes to one, an internal transfer or a notification comes from one). */
export function jettonOfMessage(m: MessageJson, metadata: MetadataJson | undefined): JettonUnits | undefined {
  for (const party of [m.destination, m.source]) {
    const units = party ? jettonOfWallet(party, metadata) : undefined;
    if (units) return units;
  }
  return undefined;
}
