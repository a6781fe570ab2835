// The /api routes as the source declares them, for tests that hold every route to a rule (a route
// added later is held to it without touching the test): each route file under app/api, with the URL
// segments its folders name ("[id]", "[[...path]]" kept as they are) and the methods it exports.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const API_DIR = path.resolve(__dirname, "../app/api");

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type RouteFile = { file: string; segments: string[]; methods: HttpMethod[] };

/** Every route.ts under app/api (`dir`), with the methods it exports (`export const POST = ...`). */
export function apiRouteFiles(dir = API_DIR, segments: string[] = []): RouteFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return apiRouteFiles(path.join(dir, entry.name), [...segments, entry.name]);
    if (entry.name !== "route.ts") return [];
    const file = path.join(dir, entry.name);
    const source = readFileSync(file, "utf8");
    return [{ file, segments, methods: HTTP_METHODS.filter((m) => new RegExp(`^export const ${m}\\b`, "m").test(source)) }];
  });
}
