// The secrets of a share link: its token (24 random bytes: 192 bits, base64url), its password kept as
// node's scrypt hash (salted, costs written beside it so they can rise later), the cookie that opens a
// link with a password for 24 hours once it was typed (an HMAC under SESSION_SECRET of the link and its
// password's hash: changing the password or revoking the link ends every such cookie), and the
// throttle of wrong passwords: 5 per link and client in 15 minutes, then 429 (the sign-in throttle's
// machinery, in Redis with REDIS_URL). Nothing here keeps or logs a token or a password.
import "server-only";
import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { createSignInThrottle, type SignInThrottle } from "@/lib/server/sign-in-throttle";
import type { RedisLink } from "@/lib/shared-state/redis/connection";

/** A new link's token. */
export const newShareToken = (): string => randomBytes(24).toString("base64url");

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize("NFC"), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** The password as kept: `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashSharePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` is the one `kept` was made from (in constant time); false for a hash it cannot read. */
export async function sharePasswordMatches(password: string, kept: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = kept.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const N = Number(n);
  if (!Number.isInteger(N) || N < 2 || N > 2 ** 20 || expected.length < 16) return false;
  const key = await scryptAsync(password, Buffer.from(salt, "base64url"), expected.length, { N, r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 });
  return timingSafeEqual(key, expected);
}

/** How long a typed password opens its link in that browser. */
export const UNLOCK_TTL_MS = 24 * 60 * 60 * 1000;

/** The cookie of one link (its id is no secret). */
export const unlockCookieName = (shareId: string) => `wa_share_${shareId.slice(4)}`;

const unlockMac = (secret: string, shareId: string, passwordHash: string, until: number) =>
  createHmac("sha256", secret).update(`share-unlock\n${shareId}\n${passwordHash}\n${until}`).digest("base64url");

/** The cookie's value after the right password: until when, and its MAC. */
export function unlockCookieValue(secret: string, share: { id: string; passwordHash: string }, now: number): string {
  const until = now + UNLOCK_TTL_MS;
  return `${until}.${unlockMac(secret, share.id, share.passwordHash, until)}`;
}

/** Whether the cookie's `value` opens `share` now, under any of `secrets` (the current one and the previous during a rotation). */
export function unlockCookieOpens(value: string | undefined, secrets: readonly string[], share: { id: string; passwordHash: string }, now: number): boolean {
  if (!value) return false;
  const [untilText, mac] = value.split(".");
  const until = Number(untilText);
  if (!mac || !Number.isSafeInteger(until) || until <= now || until > now + UNLOCK_TTL_MS) return false;
  const given = Buffer.from(mac);
  return secrets.some((secret) => {
    const expected = Buffer.from(unlockMac(secret, share.id, share.passwordHash, until));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** Wrong passwords per link and client, and their window. */
export const UNLOCK_TRIES = 5;
export const UNLOCK_WINDOW_SECONDS = 15 * 60;

/** The throttle of a link's password: `begin(link|client)` reserves a try, `succeeded` gives it back. */
export function createUnlockThrottle(options: { redis?: RedisLink } = {}): SignInThrottle {
  return createSignInThrottle({ points: UNLOCK_TRIES, durationSec: UNLOCK_WINDOW_SECONDS, ...options });
}
