// Serialising parsed query params into a query string. Kept apart from params.ts (which builds the
// zod schemas) so browser code can build URLs without shipping zod.

/** Serialises parsed params in a stable order, leaving out unset values and the given defaults. */
export function toSearchParams(params: Record<string, string | number | boolean | undefined>, omit: Record<string, unknown> = {}): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === "" || omit[key] === value) continue;
    out.set(key, String(value));
  }
  return out;
}
