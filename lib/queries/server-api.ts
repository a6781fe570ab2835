// The dashboard's reads by path, as server components run them in-process: every Data API endpoint
// of the registry (lib/data-api/endpoints.ts) served as it is, and in their place or beside them the
// reads of the domains that answer more (the lists filtered here, the insights, history, the notes).
// Each is the same definition its route file mounts (app/api/<path>/route.ts: `route(definition)`), so
// a page's prefetch is validated and answered exactly as /api would answer it. `serverApi` gives
// server components these reads with the session's key; `prefetchApi` is the same for the prefetches
// a page streams, its failures resolved as markers mapped exactly as /api answers them. The browser
// is typed from this table through `import type` only (lib/queries/api.ts): no zod, no normaliser and
// no server code reaches a page's JavaScript.
import "server-only";
import { annotationRoutes } from "@/lib/annotations/routes";
import type { CallOptions } from "@/lib/data-api/api";
import { endpoints, type EndpointPath, type InputOf, type ResultOf } from "@/lib/data-api/endpoints";
import { historyRoutes } from "@/lib/history/routes";
import { errorForBrowser } from "@/lib/server/http";
import { insightRoutes } from "@/lib/insights/routes";
import { listRoutes } from "@/lib/lists/routes";
import { passThrough } from "@/lib/server/pass-through";
import { runRead } from "@/lib/server/route";
import type { ReadDefinition } from "@/lib/server/route-types";
import type { Session } from "@/lib/server/session";
import { streamedFailure } from "./streamed-failure";

/** The domains' reads, by path (a path of the registry here replaces the endpoint's plain read). */
const domainReads = { ...listRoutes, ...insightRoutes, ...historyRoutes, ...annotationRoutes };

/** Every read by path, as the types see it: an endpoint's record, or the domain's definition in its place. */
export type ApiRoutes = Omit<typeof endpoints, keyof typeof domainReads> & typeof domainReads;
export type ApiPath = keyof ApiRoutes;

/** The reads as they run: the registry's endpoints passed through, then the domains' own. */
const reads: Record<string, ReadDefinition> = {
  ...Object.fromEntries((Object.keys(endpoints) as EndpointPath[]).map((path) => [path, passThrough(path)])),
  ...domainReads,
};

/** The same reads seen from code: `get(path, input)` with a session's key. */
export interface ApiTransport {
  get<P extends ApiPath>(path: P, input: InputOf<ApiRoutes[P]>, options?: CallOptions): Promise<ResultOf<ApiRoutes[P]>>;
}

export function serverApi(session: Session): ApiTransport {
  return {
    // The table's types tie each path to its result; one cast at this seam.
    get: (path, input, options) => runRead(reads[path]!, session, input, options) as never,
  };
}

/**
 * `serverApi` for a page's streamed prefetches: a failure resolves (never rejects) as the error /api
 * would answer (lib/queries/streamed-failure.ts says why), so the browser shows it on that widget.
 * The page's types still say the route's result: the marker is read back in the browser's hydration.
 */
export function prefetchApi(session: Session): ApiTransport {
  const api = serverApi(session);
  return {
    get: (path, input, options) =>
      api.get(path, input, options).catch((thrown: unknown) => streamedFailure(errorForBrowser(thrown, reads[path]!.subject).error) as never),
  };
}
