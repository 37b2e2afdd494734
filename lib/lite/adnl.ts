/**
 * ADNL-over-TCP primitives shared by both ends Atlas speaks: the lite-client connection
 * (lib/lite/connection.ts) and the devnet's lite server (lib/devnet/transport/adnl-server.ts).
 * The protocol: TON's "ADNL TCP - Liteserver" spec (docs.ton.org) and adnl/adnl-ext-connection.cpp.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ed25519, x25519 } from '@noble/curves/ed25519.js';
import { TlIds } from './wire';

/** The client's opening packet: key id, ephemeral key, params hash, encrypted params. */
export const ADNL_HANDSHAKE_SIZE = 256;
/** Smallest frame: nonce and checksum around an empty payload (a keepalive). */
export const ADNL_MIN_FRAME_SIZE = 64;
/** Largest frame TON's implementation accepts. */
export const ADNL_MAX_FRAME_SIZE = 1 << 24;

export function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** ADNL short id of an ed25519 public key: sha256 of the boxed pub.ed25519. */
export function adnlKeyId(publicKey: Uint8Array): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(TlIds.pubEd25519, 0);
  return sha256(prefix, publicKey);
}

/** X25519 shared secret between an ed25519 seed's Montgomery scalar and a peer's ed25519 public key. */
export function adnlSharedSecret(x25519Secret: Uint8Array, peerEd25519Public: Uint8Array): Buffer {
  return Buffer.from(x25519.getSharedSecret(x25519Secret, ed25519.utils.toMontgomery(peerEd25519Public)));
}

/** Key and IV that protect the 160 handshake params. */
export function adnlHandshakeCipherParams(shared: Uint8Array, paramsHash: Uint8Array): { key: Buffer; iv: Buffer } {
  return {
    key: Buffer.concat([shared.subarray(0, 16), paramsHash.subarray(16, 32)]),
    iv: Buffer.concat([paramsHash.subarray(0, 4), shared.subarray(20, 32)]),
  };
}

/** Builds one ADNL TCP frame (plaintext; the caller encrypts). */
export function buildAdnlFrame(payload: Uint8Array, nonce: Uint8Array = randomBytes(32)): Buffer {
  const frame = Buffer.allocUnsafe(4 + 32 + payload.length + 32);
  frame.writeUInt32LE(32 + payload.length + 32, 0);
  frame.set(nonce, 4);
  frame.set(payload, 36);
  frame.set(sha256(nonce, payload), 36 + payload.length);
  return frame;
}

/**
 * The payload of a frame body (nonce ‖ payload ‖ checksum) once its checksum is checked; null when the
 * checksum does not match.
 */
export function adnlFramePayload(body: Buffer): Buffer | null {
  const data = body.subarray(0, body.length - 32);
  return sha256(data).equals(body.subarray(body.length - 32)) ? data.subarray(32) : null;
}

/** A plaintext byte queue that avoids re-concatenating on every chunk. */
export class ByteQueue {
  private chunks: Buffer[] = [];
  length = 0;

  push(b: Buffer): void {
    if (b.length === 0) return;
    this.chunks.push(b);
    this.length += b.length;
  }

  /** Removes and returns the first n bytes (n <= length). */
  take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const first = this.chunks[0];
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let off = 0;
      while (off < n) {
        const c = this.chunks[0];
        const k = Math.min(c.length, n - off);
        c.copy(out, off, 0, k);
        off += k;
        if (k === c.length) this.chunks.shift();
        else this.chunks[0] = c.subarray(k);
      }
    }
    this.length -= n;
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
  }
}
