// The links of e-mail destinations' messages, over HTTP, for anyone holding a link (no session): the
// confirmation (POST /api/mail/confirm/{token}, which the confirmation page's button sends: a GET
// confirms nothing, since mail scanners follow links) and the one-click unsubscribe (POST
// /api/mail/unsubscribe/{token}: the unsubscribe page's button, and RFC 8058's POST, which a mail
// client sends from its own site: the route is declared `crossSite`, route-types.ts). A token is all
// either acts on; one that is not ours, spent or unknown is one 404, and no answer names the address.
// Each is a line of the workspace's activity list, its "key" the masked address that did it.
import "server-only";
import { finalError, json } from "@/lib/server/http";
import { serverContext } from "@/lib/server/context";

const LINK_GONE = "This link does not work (any more): it was used already, or its destination was deleted.";

/** A link's token: 32 random bytes in base64url (the store's `linkToken`); anything else is not found. */
export const MAIL_TOKEN = { pattern: /^[A-Za-z0-9_-]{43}$/, message: LINK_GONE, refusal: "not_found" } as const;

const linkGone = () => finalError({ status: 404, code: "not_found", message: LINK_GONE });

/** POST /api/mail/confirm/{token}: 200 `{name, status: "active"}`, the destination confirmed and the token spent; 404 otherwise. */
export async function confirmMailRoute({ params: { token } }: { params: { token: string } }) {
  const store = await serverContext().store();
  const destination = await store.alerts.confirmEmail(token);
  if (!destination) throw linkGone();
  await store.activity.record(destination.workspaceId, { keyHint: destination.urlHint, action: "destination.confirmed", subject: destination.name });
  return json({ name: destination.name, status: destination.status });
}

/** POST /api/mail/unsubscribe/{token}: 200 `{name, status: "unsubscribed"}` (again the same once done); 404 for a token of no destination. */
export async function unsubscribeMailRoute({ params: { token } }: { params: { token: string } }) {
  const store = await serverContext().store();
  const destination = await store.alerts.unsubscribeEmail(token);
  if (!destination) throw linkGone();
  if (destination.changed) {
    await store.activity.record(destination.workspaceId, { keyHint: destination.urlHint, action: "destination.unsubscribed", subject: destination.name });
  }
  return json({ name: destination.name, status: destination.status });
}
