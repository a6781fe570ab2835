// The /api routes as the source declares them: every route.ts under app/api, with the URL segments
// its folders name (`[id]`, `[[...path]]` as they are) and the methods it exports. Whatever must list
// routes reads them here, never from a list of its own: the front server takes POST, PUT, PATCH and
// DELETE only on the paths of route files that export them (front-server.ts), and the tests that hold
// every route to a rule, or answer the browser's fetch with the app's own handlers, walk them
// (testing/api-routes.ts). A route added later is held to all of it by being a file. Read from the
// source: the production entry (scripts/run.ts) runs from the repository, which it builds from.
// No `server-only`: the front server loads this in plain Node, before Next.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** app/api of this checkout. */
export const API_DIR = path.resolve(__dirname, "../../app/api");

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;
export type WriteMethod = (typeof WRITE_METHODS)[number];

export type RouteFile = { file: string; segments: string[]; methods: HttpMethod[] };

/** Every route.ts under `dir` (app/api), with the methods it exports (`export const POST = route(…)`). */
export function apiRouteFiles(dir = API_DIR, segments: string[] = []): RouteFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      if (entry.isDirectory()) return apiRouteFiles(path.join(dir, entry.name), [...segments, entry.name]);
      if (entry.name !== "route.ts") return [];
      const file = path.join(dir, entry.name);
      const source = readFileSync(file, "utf8");
      return [{ file, segments, methods: HTTP_METHODS.filter((m) => new RegExp(`^export const ${m}\\b`, "m").test(source)) }];
    });
}

/** `[[...path]]` or `[...path]`: a catch-all, which stands for no route of its own (the JSON 404). */
export const isCatchAll = (segment: string): boolean => segment.startsWith("[...") || segment.startsWith("[[...");

/** `[id]`: one segment of any value. */
export const isDynamic = (segment: string): boolean => segment.startsWith("[") && !isCatchAll(segment);

/**
 * The paths that take writes, as `/api/…` with `*` for a dynamic segment, each with the write methods
 * its file exports (none for a read-only file, so that an exact path is never taken for a pattern's).
 */
export function writeRouteTable(dir = API_DIR): Record<string, WriteMethod[]> {
  const table: Record<string, WriteMethod[]> = {};
  for (const route of apiRouteFiles(dir)) {
    if (route.segments.some(isCatchAll)) continue;
    const pattern = `/api${route.segments.map((s) => `/${isDynamic(s) ? "*" : s}`).join("")}`;
    table[pattern] = WRITE_METHODS.filter((m) => route.methods.includes(m));
  }
  return table;
}

/**
 * The route file Next would choose for a request path (`/api/views/view_1`, its segments decoded as
 * Next decodes them), or for the segments after /api as the router hands them over, and the values of
 * its dynamic segments: a static segment wins over a dynamic one at the first place they differ, and
 * a catch-all takes what nothing else does. Undefined when even no catch-all matches.
 */
export function matchRouteFile(
  files: readonly RouteFile[],
  path: string | readonly string[],
): { route: RouteFile; params: Record<string, string | string[]> } | undefined {
  const parts =
    typeof path === "string"
      ? path
          .replace(/^\/api\/?/, "")
          .split("/")
          .filter(Boolean)
          .map(safeDecode)
      : path;
  const ranked = files
    .map((route) => ({ route, params: matchSegments(route.segments, parts) }))
    .filter((m): m is { route: RouteFile; params: Record<string, string | string[]> } => m.params !== undefined);
  ranked.sort((a, b) => specificity(b.route.segments) - specificity(a.route.segments) || compareStatic(a.route.segments, b.route.segments));
  return ranked[0];
}

function matchSegments(segments: readonly string[], parts: readonly string[]): Record<string, string | string[]> | undefined {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (isCatchAll(segment)) {
      params[segment.replace(/^\[+\.\.\.|\]+$/g, "")] = [...parts.slice(i)];
      return params;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (isDynamic(segment)) params[segment.slice(1, -1)] = part;
    else if (segment !== part) return undefined;
  }
  return segments.length === parts.length ? params : undefined;
}

/** Routes without a catch-all before those with one. */
const specificity = (segments: readonly string[]) => (segments.some(isCatchAll) ? 0 : 1);

/** Earlier static segments first: `rules/preview` before `rules/[id]`. */
function compareStatic(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const da = isDynamic(a[i]!) || isCatchAll(a[i]!);
    const db = isDynamic(b[i]!) || isCatchAll(b[i]!);
    if (da !== db) return da ? 1 : -1;
  }
  return 0;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
