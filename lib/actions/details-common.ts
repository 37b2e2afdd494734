// What every family of /api/v3 `details` builders (details.ts, details-nft.ts) reads records with.
import type { Action, ActionData, ActionValue } from './model';

export type Details = Record<string, unknown>;

/** Amounts, query ids and other big integers as strings (S in api-v3.md). */
export const str = (v: ActionValue | undefined): string | null => (v === null || v === undefined ? null : String(v));

/** A record's `<key>_data` object, empty when it has none. */
export const data = (a: Action, key: string): ActionData => (a[`${key}_data`] as ActionData | undefined) ?? {};
