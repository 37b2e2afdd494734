// What a jetton says about itself (TEP-64 content as /jetton/masters returns it: the on-chain attributes,
// or {uri} for off-chain content), reduced to what a page shows. The content is written by strangers:
// decimals outside TEP-64's range fall back to the default rather than misprinting every amount, and an
// image is never fetched by the browser from an arbitrary host (pages show a placeholder instead).

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
