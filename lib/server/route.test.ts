// Every /api route is declared one way: each method each route file under app/api exports is made by
// `route()` (lib/server/route.ts), so it answers cross-site requests, the same origin of writes, its
// access and bad input as every other route does, and its refusals are mapped the same in tests and in
// the production build. A route file that exports a bare function, or a write not declared as one,
// fails here. The files are read from app/api, never listed.
import { describe, expect, it } from "vitest";
import { apiRouteFiles, HTTP_METHODS, isCatchAll, routeModule, WRITE_METHODS } from "@/testing/api-routes";
import { isMountedRoute } from "./route";

describe("the route files under app/api", () => {
  it("export every method through the one wrapper", async () => {
    const files = apiRouteFiles();
    expect(files.length).toBeGreaterThan(30);
    const bare: string[] = [];
    for (const route of files) {
      const mod = (await routeModule(route)) as Record<string, unknown>;
      for (const method of HTTP_METHODS) {
        if (mod[method] !== undefined && !isMountedRoute(mod[method])) bare.push(`${method} ${route.segments.join("/")}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it("declare every write as one (the same-origin check), and no read as one", async () => {
    const wrong: string[] = [];
    for (const route of apiRouteFiles()) {
      // The catch-all answers every method with the JSON 404: nothing there writes.
      if (route.segments.some(isCatchAll)) continue;
      const mod = (await routeModule(route)) as Record<string, unknown>;
      for (const method of HTTP_METHODS) {
        const handler = mod[method];
        if (!isMountedRoute(handler)) continue;
        const writes = (WRITE_METHODS as readonly string[]).includes(method);
        if (Boolean(handler.definition.write) !== writes) wrong.push(`${method} ${route.segments.join("/")}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
