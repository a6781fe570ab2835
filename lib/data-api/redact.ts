// Keeping the API key out of anything shown or logged. `maskKey` gives the hint the UI may show
// (`svc_sk_test_…9f2c`); `redactKey` scrubs a key (or its secret part) from text that came from
// elsewhere, e.g. an upstream error message that echoes the key back.

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
