// The browser's fetch answered by the app's own /api route handlers, in-process, as Next would call
// them: the session's cookie and this origin on every request, the route file chosen as Next's router
// chooses it (testing/api-routes.ts, from app/api: no list of routes here). Component tests of a UI that
// writes through the store use it with a real store (opened by testing/stores.ts), so what the UI sends
// is validated and kept exactly as over HTTP. The routes' own behaviour is tested over HTTP in their
// own files.
import { answerAsNext } from "./api-routes";

export { preloadRoutes } from "./api-routes";
import { ORIGIN } from "./in-process";

/** What the UI sent: the method, the path and query as requested, and the JSON body if any. */
export type SentRequest = { method: string; url: string; body: unknown };

/** A fetch for `cookie`'s session; every request it answers is pushed to `sent` when given. */
export function appRoutesAsFetch(cookie: string, sent?: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input), ORIGIN);
    const method = (init?.method ?? "GET").toUpperCase();
    const headers = new Headers(init?.headers);
    headers.set("cookie", cookie);
    if (method !== "GET") headers.set("origin", ORIGIN);
    sent?.push({ method, url: `${url.pathname}${url.search}`, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
    return answerAsNext(new Request(url, { method, headers, ...(init?.body ? { body: init.body } : {}) }));
  };
}
