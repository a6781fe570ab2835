// Requests from other sites. A page on another site can make the browser send this app's session
// cookie with a top-level navigation (SameSite=Lax lets GETs through), a popup or a form: enough to
// spend the workspace key's rate limit through any /api route, or to sign in or out.
// - `isCrossSiteFetch` is asked first by every /api route (the route wrapper, route.ts): a request a
//   browser marks `Sec-Fetch-Site: cross-site` or `same-site` is refused with 403 before the handler
//   runs, whatever its method. `same-origin` (this app's pages and their download links) and `none` (an address typed
//   in the address bar, a bookmark) pass, and so do requests without the header: they do not come from
//   a browser page and carry no ambient cookie risk (scripts, curl).
//   One declared exception (route-types.ts `crossSite`): an e-mail's one-click unsubscribe, which a
//   mail client posts from its own site; such a route is public (no cookie of this app is read).
// - `isSameOrigin` is the stricter check of session-changing requests (sign-in, sign-out, cancel): a
//   browser always sends Origin on POST/DELETE, so a foreign or `null` Origin is refused too.
import "server-only";
import { finalError } from "./http";

/** True when a browser says the request comes from another site (or anything but this origin or the user). */
export function isCrossSiteFetch(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none";
}

/** The refusal of a request `isCrossSiteFetch` says another site started: 403, before any work. */
export const crossSiteRejected = () =>
  finalError({ status: 403, code: "cross_site_rejected", message: "This API answers this app's own pages only, not requests started by other sites." });

/** The refusal of a session-changing request that fails `isSameOrigin`: 403, nothing changed. */
export const sameOriginRejected = () => finalError({ status: 403, code: "csrf_rejected", message: "This request did not come from this app's own pages." });

export function isSameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? new URL(req.url).host;
  if (origin !== null) {
    if (origin === "null") return false;
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return !isCrossSiteFetch(req);
}
