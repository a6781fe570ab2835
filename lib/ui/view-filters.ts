// Small, zod-free helpers about a view's parameters that browser components need (the parsing
// itself, with zod, happens on the server in each route's search-params.ts).

/** A list view's filters without paging: what an export of "every matching row" takes. */
export function withoutPaging<T extends { limit?: number | string; offset?: number | string }>(params: T): Omit<T, "limit" | "offset"> {
  const { limit: _limit, offset: _offset, ...filters } = params;
  return filters;
}
