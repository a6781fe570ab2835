// A Data API endpoint served as it is, from its one record in the registry (lib/data-api/endpoints.ts):
// its route file is `export const GET = route(passThrough("/analytics/overview"))`, and server
// components read it in-process through the same definition (lib/queries/server-api.ts). The record
// gives the path parameters' rules, the query's schema and what the data is called in messages; the
// session's client (lib/data-api/client.ts) does the rest: URL, cache, scheduling, parsing. No client
// header goes upstream, and HEAD is refused (its headers would cost the same upstream call as GET).
import "server-only";
import { endpoints, type EndpointPath, type Endpoints, type ResultOf } from "@/lib/data-api/endpoints";
import { defineRoute, HEAD_COSTS_UPSTREAM, type SessionPart } from "./route-types";

type PassThroughContext = SessionPart & { params: Record<string, string>; query: Record<string, unknown>; signal?: AbortSignal };

/**
 * The read of endpoint `path` for the session's key. `afterRead` sees each answer once it is read
 * (the score and the ranking are kept as history: lib/history/routes.ts); it must not hold the answer up.
 */
export function passThrough<P extends EndpointPath>(path: P, options: { afterRead?: (apiKey: string, result: ResultOf<Endpoints[P]>) => void } = {}) {
  const record = endpoints[path] as Endpoints[EndpointPath];
  return defineRoute(
    {
      access: "session",
      subject: record.subject,
      ...("query" in record ? { query: record.query } : {}),
      ...("pathParams" in record ? { pathParams: record.pathParams } : {}),
      headRefused: HEAD_COSTS_UPSTREAM,
    },
    async ({ api, session, params, query, signal }: PassThroughContext): Promise<ResultOf<Endpoints[P]>> => {
      const result = (await api.get(path, { params, query } as never, signal ? { signal } : {})) as ResultOf<Endpoints[P]>;
      options.afterRead?.(session.apiKey, result);
      return result;
    },
  );
}
