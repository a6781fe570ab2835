// The store's one scope for a signed-in session, asked by the route wrapper (route.ts) for a route
// declared with `store`: the session's key still standing upstream (key-standing.ts: rechecked at most
// every 5 minutes; a key the Data API refuses ends the session, a key refused the resource a route
// derives from is refused what the store kept of it), then the store and the session's workspace. One
// place, so the notes, views, alerts, the workspace, the history and whatever the store serves next
// judge a request the same way; a route that learns what it derives from only from its input (a
// rule's preview) calls `requireResource`.
import "server-only";
import type { ActivityAction } from "@/lib/activity/actions";
import { DataApiError } from "@/lib/data-api/errors";
import { endpoints } from "@/lib/data-api/endpoints";
import { serverContext } from "./context";
import { finalError, mapUpstreamError } from "./http";
import { keyStanding, type StoreResource } from "./key-standing";
import type { StoreScope } from "./route-types";
import { revokeSession, type PageSession, type Session } from "./session";

export type { StoreResource } from "./key-standing";
export type { StoreScope } from "./route-types";

const hasId = (session: PageSession | Session): session is Session => "sessionId" in session;

/**
 * The scope of `session` (a request's, or a page's prefetch's), the resource the route derives from rechecked.
 * A key the Data API refuses ends the session here (revoked on every instance, so the page's own
 * prefetches stop too) and throws the upstream's 401, which the error mapping answers as every
 * upstream 401 (`session_expired`, the cookie cleared).
 */
export async function sessionStoreScope(session: PageSession | Session, derivesFrom?: StoreResource): Promise<StoreScope> {
  const standing = await keyStanding(session.apiKey, derivesFrom);
  if (standing.key === "refused") {
    if (hasId(session)) await revokeSession(session);
    throw keyRefused();
  }
  if (derivesFrom && standing.resource === "refused") throw resourceRefused(derivesFrom);
  const store = await serverContext().store();
  const workspace = (await store.workspaces.workspaceForKey(session.apiKey)).id;
  const record = async (action: ActivityAction, subject: string) => {
    await store.activity.record(workspace, { keyHint: session.keyHint, action, subject });
  };
  return { store, workspace, apiKey: session.apiKey, keyHint: session.keyHint, record };
}

/** The upstream's 401, which the error mapping answers as every upstream 401 (`session_expired`, the cookie cleared). */
const keyRefused = () => new DataApiError({ status: 401, code: "unauthorized", message: "The Data API refused this key." });

/** In the live widget's own words: the score's history is refused as the score is. */
function resourceRefused(resource: StoreResource): DataApiError {
  const { status, code, message } = mapUpstreamError(new DataApiError({ status: 403, code: "forbidden", message: "" }), endpoints[resource].subject).error;
  return finalError({ status, code, message });
}

/**
 * For a route that knows what it derives from only once its input is read (a rule's preview, by its
 * kind): after the scope, a 403 unless the key may read `resource` (asked as `derivesFrom` is).
 */
export async function requireResource(apiKey: string, resource: StoreResource): Promise<void> {
  const standing = await keyStanding(apiKey, resource);
  // Refused since the scope was judged (the resource's probe met a 401): the session ends as above.
  if (standing.key === "refused") throw keyRefused();
  if (standing.resource === "refused") throw resourceRefused(resource);
}
