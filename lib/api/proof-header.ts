// The header by which an API answer says it was checked by proof (LITE_VERIFY=on): `X-Atlas-Verified: proof`
// on answers built from lite-server answers alone, every one of them checked (lib/api/proof-mark.ts). The
// explorer reads it (lib/client/fetcher.ts), so this module stays free of server-only imports.
export const PROOF_HEADER = 'X-Atlas-Verified';
export const PROOF_VALUE = 'proof';

/** The header in the OpenAPI documents of the routes that may send it. */
export const PROOF_HEADER_DOC = {
  description:
    '`proof` when the server checks lite-server proofs (LITE_VERIFY=on) and every lite answer this one was built from was checked: ' +
    'the account state against the state hash of its shard block, that block through the masterchain block, and the masterchain ' +
    'block by the signatures of its validator set. Absent otherwise.',
  schema: { type: 'string', enum: [PROOF_VALUE] },
};
