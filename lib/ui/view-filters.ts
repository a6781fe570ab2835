// Small, zod-free helpers about a view's parameters that browser components need (the parsing
// itself, with zod, happens on the server in each route's search-params.ts).

export const PERIOD_LABELS: Record<string, string> = {
  "24h": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
};

/** A list view's filters without paging: what an export of "every matching row" takes. */
export function withoutPaging<T extends { limit?: number | string; offset?: number | string }>(params: T): Omit<T, "limit" | "offset"> {
  const { limit: _limit, offset: _offset, ...filters } = params;
  return filters;
}
