// The finality levels of the Streaming API and their order, apart from protocol.ts's schemas so the
// explorer's pages (components/) can compare finalities without taking zod and the models into the browser.

export const FINALITIES = ['pending', 'confirmed', 'finalized'] as const;
export type Finality = (typeof FINALITIES)[number];

const RANK: Record<Finality, number> = { pending: 0, confirmed: 1, finalized: 2 };

/** True when `f` is at `min` or beyond (a trace's finality only rises: pending → confirmed → finalized). */
export const reaches = (f: Finality, min: Finality) => RANK[f] >= RANK[min];
export const higher = (a: Finality, b: Finality): Finality => (RANK[a] >= RANK[b] ? a : b);
