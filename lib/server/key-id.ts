// A stable, non-reversible id for an API key: what server-side stores are keyed by (export status,
// and later shared stores), so no store ever holds a key in clear. Keyed with the session secret, so
// the id of a known key cannot be computed by someone who can read the store but not the secret.
import "server-only";
import { createHmac } from "node:crypto";
import { getEnv } from "./env";

export function keyId(apiKey: string): string {
  return createHmac("sha256", getEnv().sessionSecret).update(apiKey).digest("base64url").slice(0, 32);
}
