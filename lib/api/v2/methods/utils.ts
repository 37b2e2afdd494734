// Address and hash utilities (api-v2.md §2.1, §3.6): pure conversions, no chain access.
import { z } from 'zod';
import { friendly, rawLower, rawUpper } from '../../../ton/address';
import { defineMethod } from '../method';
import { address, hash } from '../params';

export const detectAddress = defineMethod({
  name: 'detectAddress',
  verbs: 'read',
  summary: 'All forms of an address and which form was given',
  params: z.object({ address: address() }),
  async run({ address: p }) {
    const variant = (bounceable: boolean) => ({
      '@type': 'ext.utils.detectedAddressVariant',
      b64: friendly(p.address, { bounceable, testOnly: p.testOnly, urlSafe: false }),
      b64url: friendly(p.address, { bounceable, testOnly: p.testOnly, urlSafe: true }),
    });
    return {
      '@type': 'ext.utils.detectedAddress',
      raw_form: rawLower(p.address),
      bounceable: variant(true),
      non_bounceable: variant(false),
      given_type: p.givenType,
      test_only: p.testOnly,
    };
  },
});

export const detectHash = defineMethod({
  name: 'detectHash',
  verbs: 'read',
  summary: 'A 32-byte hash in base64, url-safe base64 and hex',
  params: z.object({ hash: hash() }),
  async run({ hash: h }) {
    return { '@type': 'ext.utils.detectedHash', b64: h.toString('base64'), b64url: h.toString('base64url'), hex: h.toString('hex') };
  },
});

export const packAddress = defineMethod({
  name: 'packAddress',
  verbs: 'read',
  summary: 'Friendly (url-safe) form of an address; raw input becomes bounceable',
  params: z.object({ address: address() }),
  async run({ address: p }) {
    const bounceable = p.givenType !== 'friendly_non_bounceable';
    return friendly(p.address, { bounceable, testOnly: p.testOnly, urlSafe: true });
  },
});

export const unpackAddress = defineMethod({
  name: 'unpackAddress',
  verbs: 'read',
  summary: 'Raw form (wc:HEX) of an address',
  params: z.object({ address: address() }),
  async run({ address: p }) {
    return rawUpper(p.address);
  },
});
