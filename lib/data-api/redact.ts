// Keeping the API key out of anything shown or logged. `maskKey` gives the hint the UI may show
// (`svc_sk_test_…9f2c`); `redactKey` scrubs a key (or its secret part) from text that came from
// elsewhere, e.g. an upstream error message that echoes the key back; `redactStrings` does so for
// every string of a body, and `cleanToken` makes an upstream identifier (X-Request-ID, an error
// code) a bounded, printable token without the key.

const PREFIX = /^(svc_sk_(?:live|test)_)/;

/** The key's environment prefix, then an ellipsis and its last 4 characters. */
export function maskKey(apiKey: string): string {
  const prefix = PREFIX.exec(apiKey)?.[1] ?? "";
  const tail = apiKey.length - prefix.length > 8 ? apiKey.slice(-4) : "";
  return `${prefix}…${tail}`;
}

/** The part of the key after its public prefix: what must never be shown. */
export function secretPart(apiKey: string): string {
  return apiKey.replace(PREFIX, "");
}

/** Replaces the key and its secret part in `text` with the masked hint. */
export function redactKey(text: string, apiKey: string): string {
  if (!apiKey) return text;
  const secret = secretPart(apiKey);
  let out = text.split(apiKey).join(maskKey(apiKey));
  // Short secrets would match ordinary words; real secrets are long random strings.
  if (secret.length >= 8) out = out.split(secret).join("…");
  return out;
}

/** The strings `redactKey` replaces: the key, and its secret part when long enough to be one. */
function needles(apiKey: string): string[] {
  const secret = secretPart(apiKey);
  return secret.length >= 8 ? [apiKey, secret] : [apiKey];
}

function holdsKey(value: unknown, keys: readonly string[]): boolean {
  if (typeof value === "string") return keys.some((k) => value.includes(k));
  if (Array.isArray(value)) return value.some((v) => holdsKey(v, keys));
  if (typeof value === "object" && value !== null) return Object.values(value).some((v) => holdsKey(v, keys));
  return false;
}

function redactAll(value: unknown, apiKey: string): unknown {
  if (typeof value === "string") return redactKey(value, apiKey);
  if (Array.isArray(value)) return value.map((v) => redactAll(v, apiKey));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAll(v, apiKey)]));
  return value;
}

/**
 * Whether the JSON text of a body can hold the key once parsed: only if it holds it literally, or
 * holds a \u escape (the key's characters, [A-Za-z0-9_-], have no other escaped form). Lets the
 * common body skip the walk of `redactStrings`.
 */
export function jsonMayHoldKey(json: string, apiKey: string): boolean {
  return json.includes("\\u") || needles(apiKey).some((k) => json.includes(k));
}

/**
 * `value` (a parsed, normalised body) with the key redacted from every string in it. A value that
 * holds no key is returned as it is, after one read-only pass.
 */
export function redactStrings<T>(value: T, apiKey: string): T {
  if (!apiKey || !holdsKey(value, needles(apiKey))) return value;
  return redactAll(value, apiKey) as T;
}

const NOT_TOKEN = /[^A-Za-z0-9._:-]+/g;

/**
 * An identifier from the upstream (X-Request-ID, an error code) as a printable token of at most
 * `max` characters, without the key; undefined when nothing is left. Redacting and dropping
 * characters repeat until neither changes anything: dropping the mask's "…" (or a control
 * character the upstream slipped between two halves) could otherwise join the key's pieces again.
 */
export function cleanToken(raw: string | null | undefined, apiKey: string, max = 128): string | undefined {
  if (typeof raw !== "string") return undefined;
  let token = raw;
  for (;;) {
    const next = redactKey(token.replace(NOT_TOKEN, ""), apiKey).replace(NOT_TOKEN, "");
    if (next === token) break;
    token = next;
  }
  token = token.slice(0, max);
  return token === "" ? undefined : token;
}
