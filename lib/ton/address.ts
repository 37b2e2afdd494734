// Account addresses as users type them, and the forms the APIs print. Both toncenter APIs accept any of:
// raw `wc:<64 hex>` (any case, wc in int8 range) or the 48-character friendly form in either base64
// alphabet (bounceable or not, optional test-only flag, CRC16 checked).
import { Address } from '@ton/core';

/**
 * The workchains that exist: the masterchain and the basechain. An address or block elsewhere names
 * nothing the lite server can read (and a workchain id past int32 cannot even be asked about).
 */
export const WORKCHAINS: readonly number[] = [-1, 0];

/** Why an address cannot be read from the chain (its workchain does not exist), or undefined when it can. */
export function missingWorkchain(address: Address): string | undefined {
  return WORKCHAINS.includes(address.workChain) ? undefined : `workchain ${address.workChain} does not exist (only ${WORKCHAINS.join(' and ')})`;
}

export type AddressForm = 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';

export interface ParsedAddress {
  address: Address;
  givenType: AddressForm;
  /** Test-only flag of a friendly input (false for raw input). */
  testOnly: boolean;
  /** A friendly input written in the url-safe alphabet. */
  urlSafe: boolean;
}

const RAW = /^(-?\d{1,3}):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/** Parses any accepted form; null when the text is not an address. */
export function parseAddress(text: string): ParsedAddress | null {
  const raw = RAW.exec(text);
  if (raw) {
    const wc = Number(raw[1]);
    if (wc < -128 || wc > 127) return null;
    return { address: new Address(wc, Buffer.from(raw[2]!, 'hex')), givenType: 'raw_form', testOnly: false, urlSafe: false };
  }
  if (!FRIENDLY.test(text) || (/[+/]/.test(text) && /[-_]/.test(text))) return null;
  try {
    const f = Address.parseFriendly(text);
    return {
      address: f.address,
      givenType: f.isBounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
      testOnly: f.isTestOnly,
      urlSafe: !/[+/]/.test(text),
    };
  } catch {
    return null; // bad checksum or tag
  }
}

/** `wc:HEX` with upper-case hex (v3 everywhere, v2 unpackAddress). */
export function rawUpper(a: Address): string {
  return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
}

/** `wc:hex` with lower-case hex (v2 detectAddress, block transaction ids). */
export function rawLower(a: Address): string {
  return `${a.workChain}:${a.hash.toString('hex')}`;
}

export function friendly(a: Address, opts: { bounceable: boolean; testOnly?: boolean; urlSafe?: boolean }): string {
  return a.toString({ bounceable: opts.bounceable, testOnly: opts.testOnly ?? false, urlSafe: opts.urlSafe ?? true });
}
