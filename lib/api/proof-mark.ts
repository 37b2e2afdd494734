// Marking API answers that were checked by proof. A route (v2 method, v3 route) declares `liteOnly` when
// its answer is built from what it reads through the lite client alone: no index rows, no get-method run
// over unchecked configuration. Such an answer carries `X-Atlas-Verified: proof` only when the lite reads
// behind it were all checked (lib/lite/provenance.ts: LITE_VERIFY=on and functions the verifier checks).
// Index answers are never marked: the database holds what the indexer read, not proofs.
import { withLiteReads } from '../lite/provenance';
import { PROOF_HEADER, PROOF_VALUE } from './proof-header';

/** Runs a route's work; `verified` when the route is lite-only and everything it read was checked. */
export async function runMarked<T>(liteOnly: boolean | undefined, work: () => Promise<T>): Promise<{ value: T; verified: boolean }> {
  if (!liteOnly) return { value: await work(), verified: false };
  const { value, proven } = await withLiteReads(work);
  return { value, verified: proven };
}

/** The response, with the header when its answer was verified. */
export function withProofHeader(res: Response, verified: boolean): Response {
  if (verified) res.headers.set(PROOF_HEADER, PROOF_VALUE);
  return res;
}
