// Building a view's next URL from its current query and one change. Filters use the Data API's own
// parameter names; any change of a filter or the page size goes back to the first page.
export type RawSearch = Record<string, string>;

/** The first value of each parameter, as strings (what the filter controls show). */
export function toRawSearch(input: Record<string, string | string[] | undefined>): RawSearch {
  const out: RawSearch = {};
  for (const [k, v] of Object.entries(input)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined) out[k] = value;
  }
  return out;
}

export function nextSearch(current: RawSearch, changes: Record<string, string | undefined>, options: { resetOffset?: boolean } = {}): string {
  const merged: Record<string, string | undefined> = { ...current, ...changes };
  if (options.resetOffset ?? true) delete merged.offset;
  const out = new URLSearchParams();
  for (const key of Object.keys(merged).sort()) {
    const value = merged[key];
    if (value === undefined || value === "") continue;
    out.set(key, value);
  }
  const qs = out.toString();
  return qs ? `?${qs}` : "";
}
