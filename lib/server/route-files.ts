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
