// The one envelope for everything this app keeps sealed at rest: AES-256-GCM under a 32-byte key,
// bound to associated data that names what the value is and where it belongs (so a sealed value
// copied to another entry or row does not open there). Layout: a version byte, the 12-byte IV, the
// 16-byte tag, the ciphertext. Used by the response cache in Redis (redis/sealed.ts) and by the
// store's sealed secrets (lib/store/secrets.ts); each derives its own keys.
import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function sealBytes(key: Buffer, aad: string, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), body]);
}

/** The plaintext, or undefined when `sealed` was not sealed under `key` with `aad` (or is damaged). */
export function openBytes(key: Buffer, aad: string, sealed: Buffer): Buffer | undefined {
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
