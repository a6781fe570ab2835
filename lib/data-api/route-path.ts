// Paths and cache keys of routes, derived from a route's path template (`/visitors/:id/timeline`).
// Zod-free, so the browser transport can use it (see endpoints.ts for the declarations).
import { toSearchParams } from "./query-string";

type QueryValues = Record<string, string | number | boolean | undefined>;

/** Fills `:name` segments with URL-encoded parameters (the server validates them before this). */
export function fillPath(path: string, params: Readonly<Record<string, string>> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ""));
}

/** A path with its query string, parameters in a stable order, unset ones left out. */
export function withQuery(path: string, query: QueryValues | undefined): string {
  const qs = query ? toSearchParams(query).toString() : "";
  return qs ? `${path}?${qs}` : path;
}

/**
 * The React Query key of a route's answer: the path's segments with parameters filled in, then the
 * query when there is one. It starts with the resource and carries every parameter, e.g.
 * ["visitors", { source: "chatgpt", limit: 20, offset: 0 }], ["visitors", "vis_1", "timeline"],
 * ["intelligence", "score"]; so ["visitors"] is the prefix of everything about visitors.
 */
export function routeKey(path: string, params?: Readonly<Record<string, string>>, query?: QueryValues): readonly unknown[] {
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") ? (params?.[segment.slice(1)] ?? "") : segment));
  const definedQuery = query ? Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) : {};
  return Object.keys(definedQuery).length > 0 ? [...segments, definedQuery] : segments;
}
