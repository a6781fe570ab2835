// What an access token is: `wa_` and 32 random bytes (base64url, 43 characters; its form is
// TOKEN_PATTERN of lib/server/token-access.ts, which reads it from a request), shown once when it is
// made and then only as its hint (`wa_…abcd`).

/** A new token: 256 bits of randomness. */
export function makeToken(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return `wa_${Buffer.from(bytes).toString("base64url")}`;
}

/** What lists show of a token: its prefix and last 4 characters. */
export function tokenHint(token: string): string {
  return `wa_…${token.slice(-4)}`;
}
