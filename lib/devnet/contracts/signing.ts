/**
 * Ed25519 signatures with Node's native implementation. @ton/crypto signs with tweetnacl (~2 ms a
 * signature, most of the traffic generator's time); Ed25519 is deterministic, so the signatures are the
 * same bytes.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { Cell } from '@ton/core';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const MAX_KEYS = 1024;
const keyObjects = new Map<string, KeyObject>();

function keyObject(secretKey: Buffer): KeyObject {
  // A TON secret key is seed ‖ public key; the private key object is built from the seed (cached: the
  // same few wallets sign again and again).
  const id = secretKey.toString('latin1', 0, 32);
  let key = keyObjects.get(id);
  if (!key) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secretKey.subarray(0, 32)]), format: 'der', type: 'pkcs8' });
    if (keyObjects.size >= MAX_KEYS) keyObjects.delete(keyObjects.keys().next().value as string);
    keyObjects.set(id, key);
  }
  return key;
}

/** The Ed25519 signature of `data` (as @ton/crypto's `sign(data, secretKey)`). */
export function ed25519Sign(data: Buffer, secretKey: Buffer): Buffer {
  return sign(null, data, keyObject(secretKey));
}

/** A @ton/ton `signer` (signs the cell's hash) for `secretKey`. */
export function nativeSigner(secretKey: Buffer): (message: Cell) => Promise<Buffer> {
  return async (message: Cell) => ed25519Sign(message.hash(), secretKey);
}
