// Cached bodies in a shared Redis are readable only with the API key they were fetched with: each
// value is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the API key and the session
// secret, bound to the entry it belongs to (its namespace and name, as associated data), and the
// entry's name in Redis is a keyed hash (a request path can name a visitor or a filter). Someone who
// can read Redis but holds neither the key nor the secret learns nothing but sizes and timings; another
// workspace's key opens nothing (a failed open is a cache miss, never an error).
import "server-only";
import { createHmac, hkdfSync } from "node:crypto";
import { openBytes, sealBytes } from "@/lib/server/aes-gcm";

export type Sealer = {
  /** The name an entry goes by in Redis: a keyed hash of `key`. */
  name(key: string): string;
  seal(entry: string, value: unknown): Buffer;
  /** The value, or undefined when `sealed` was not sealed with this key for this entry (or is damaged). */
  open(entry: string, sealed: Buffer): unknown;
};

export function sealerFor(apiKey: string, secret: string): Sealer {
  const material = Buffer.from(hkdfSync("sha256", apiKey, secret, "workspace-analytics shared cache v1", 64));
  const sealKey = material.subarray(0, 32);
  const nameKey = material.subarray(32);
  return {
    name: (key) => createHmac("sha256", nameKey).update(key).digest("base64url").slice(0, 32),
    seal: (entry, value) => sealBytes(sealKey, entry, Buffer.from(JSON.stringify(value), "utf8")),
    open(entry, sealed) {
      const plain = openBytes(sealKey, entry, sealed);
      if (!plain) return undefined;
      try {
        return JSON.parse(plain.toString("utf8")) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
