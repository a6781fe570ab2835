// Secrets the store keeps (a watched workspace's API key; later, webhook URLs and signing secrets)
// are sealed with AES-256-GCM (lib/server/aes-gcm.ts) under a key derived from SESSION_SECRET, and
// bound to what they are and where they belong (the associated data, e.g. the workspace's id), so a
// sealed value copied to another row does not open there. Someone who can read the database but not
// the secret learns nothing but lengths. During a rotation SESSION_SECRET_PREVIOUS still opens what
// was sealed before, and the caller writes back the value sealed again under the new secret.
import "server-only";
import { hkdfSync } from "node:crypto";
import { openBytes, sealBytes } from "@/lib/server/aes-gcm";

/** The secrets in force: the one that seals, and the one before a rotation that still opens. */
export type SealingSecrets = { current: string; previous?: string };

const PREFIX = "v1.";
const keys = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "workspace-analytics store", "store secrets v1", 32));
    if (keys.size > 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** `value` sealed under the current secret, bound to `aad`, as text for a column. */
export function sealSecret(secrets: SealingSecrets, aad: string, value: string): string {
  return PREFIX + sealBytes(keyOf(secrets.current), aad, Buffer.from(value, "utf8")).toString("base64url");
}

/**
 * The sealed value, and whether it was sealed under the previous secret (then the caller seals it
 * again). Undefined when neither secret opens it for `aad` (another secret, another row, damaged).
 */
export function openSecret(secrets: SealingSecrets, aad: string, sealed: string): { value: string; underPrevious: boolean } | undefined {
  if (!sealed.startsWith(PREFIX)) return undefined;
  const bytes = Buffer.from(sealed.slice(PREFIX.length), "base64url");
  const current = openBytes(keyOf(secrets.current), aad, bytes);
  if (current) return { value: current.toString("utf8"), underPrevious: false };
  if (!secrets.previous) return undefined;
  const previous = openBytes(keyOf(secrets.previous), aad, bytes);
  return previous ? { value: previous.toString("utf8"), underPrevious: true } : undefined;
}
