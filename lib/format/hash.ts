// Hash spellings: the APIs answer standard base64; links use url-safe base64 (no `/` in paths).

export const toUrlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');
export const fromUrlSafe = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/');

export function base64ToHex(b64: string): string {
  const bin = atob(fromUrlSafe(b64));
  let out = '';
  for (let i = 0; i < bin.length; i++) out += bin.charCodeAt(i).toString(16).padStart(2, '0');
  return out;
}

/** `EQDt…p4q2`: keeps both ends, which is what people compare. */
export function middle(s: string, keep = 6): string {
  return s.length <= keep * 2 + 1 ? s : `${s.slice(0, keep)}…${s.slice(-keep)}`;
}
