// The e-mail links' routes on both databases, through the app's own route handlers, without a
// session: POST /api/mail/confirm/{token} confirms once (then the token is spent: 404), and is refused
// (403) when another site starts it; POST /api/mail/unsubscribe/{token} stops the destination, again
// the same answer when repeated, and is accepted from another site (RFC 8058's POST comes from a mail
// client's own site: the route's declared exception), with RFC 8058's form body. A token that is not
// one, or of no destination, is a 404 that changes nothing; no answer names the address.
import { describe, expect, it } from "vitest";
import { call, ORIGIN, serverContextPerTest, TEST_NOW, type ErrorJson } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { routeFileAt } from "@/testing/api-routes";
import { route } from "@/lib/server/route";

const confirmRoute = await routeFileAt("mail/confirm/[token]");
const unsubscribeRoute = await routeFileAt("mail/unsubscribe/[token]");

const stores = storesForFile();
const overrideContext = serverContextPerTest();

const TO = "maria.lopez@example.org";
const OTHER_SITE = "https://mail.example.net";

async function storeFor(kind: StoreKind): Promise<Store> {
  const now = () => Date.parse(TEST_NOW);
  const store = await stores.open(kind, { now });
  overrideContext({ store: async () => store, now });
  return store;
}

async function emailDestination(store: Store) {
  const workspace = (await store.workspaces.workspaceForKey("svc_sk_test_mail_routes_0001")).id;
  return { workspace, ...(await store.alerts.createEmailDestination(workspace, { name: "Maria", to: TO, toHint: "m…@example.org" })) };
}

type Handler = (req: Request, ctx: never) => Promise<Response>;
type Answer = { name: string; status: string } & Partial<ErrorJson>;

const post = (handler: Handler, which: "confirm" | "unsubscribe", token: string, headers: Record<string, string> = { origin: ORIGIN }, body?: string) =>
  call<Answer>(handler, `/api/mail/${which}/${token}`, {
    init: { method: "POST", headers, ...(body === undefined ? {} : { body }) },
    params: { token },
  });

describe.each(STORE_KINDS)("e-mail links' routes (%s)", (kind) => {
  it("confirm: once from this app's page, 200 active; the token then spent (404); started by another site a 403 that confirms nothing", async () => {
    const store = await storeFor(kind);
    const { workspace, destination, confirmToken } = await emailDestination(store);

    for (const headers of [{ origin: OTHER_SITE }, { origin: ORIGIN, "sec-fetch-site": "cross-site" }, { origin: "null" }] as Record<string, string>[]) {
      const refused = await post(confirmRoute.POST, "confirm", confirmToken, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(["csrf_rejected", "cross_site_rejected"]).toContain(refused.body.error?.code);
    }
    expect((await store.alerts.destination(workspace, destination.id))?.status).toBe("unconfirmed");

    const confirmed = await post(confirmRoute.POST, "confirm", confirmToken, { origin: ORIGIN, "sec-fetch-site": "same-origin" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ name: "Maria", status: "active" });
    expect(confirmed.text).not.toContain("maria.lopez");
    expect((await store.alerts.destination(workspace, destination.id))?.status).toBe("active");

    const again = await post(confirmRoute.POST, "confirm", confirmToken);
    expect(again.status).toBe(404);
    expect(again.body.error?.code).toBe("not_found");
    // One line of the workspace's activity, by the masked address; the refused and spent tries none.
    expect((await store.activity.list(workspace)).map((a) => [a.keyHint, a.action, a.subject])).toEqual([["m…@example.org", "destination.confirmed", "Maria"]]);
  });

  it("unsubscribe: RFC 8058's POST from a mail client's site stops the destination; the same answer again; the confirmation then spent", async () => {
    const store = await storeFor(kind);
    const { workspace, destination, confirmToken, unsubscribeToken } = await emailDestination(store);
    const oneClick = { origin: OTHER_SITE, "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" };

    const done = await post(unsubscribeRoute.POST, "unsubscribe", unsubscribeToken, oneClick, "List-Unsubscribe=One-Click");
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ name: "Maria", status: "unsubscribed" });
    expect((await store.alerts.destination(workspace, destination.id))?.status).toBe("unsubscribed");

    // Without any Origin (a mail client's server) and from the app's own page: the same answer.
    expect((await post(unsubscribeRoute.POST, "unsubscribe", unsubscribeToken, {})).body).toEqual({ name: "Maria", status: "unsubscribed" });
    expect((await post(unsubscribeRoute.POST, "unsubscribe", unsubscribeToken)).status).toBe(200);
    // An unsubscribed address cannot be confirmed after.
    expect((await post(confirmRoute.POST, "confirm", confirmToken)).status).toBe(404);
    // One line of activity for the three posts: only the first changed anything.
    expect((await store.activity.list(workspace)).map((a) => [a.keyHint, a.action, a.subject])).toEqual([
      ["m…@example.org", "destination.unsubscribed", "Maria"],
    ]);
  });

  it("a token that is not one, or of no destination, is one 404 on both routes and changes nothing", async () => {
    const store = await storeFor(kind);
    const { workspace, destination, confirmToken, unsubscribeToken } = await emailDestination(store);
    const unknown = "A".repeat(43);
    for (const token of ["short", `${"A".repeat(42)}!`, unknown, `${confirmToken}x`]) {
      const confirm = await post(confirmRoute.POST, "confirm", token);
      const unsubscribe = await post(unsubscribeRoute.POST, "unsubscribe", token, { origin: OTHER_SITE, "sec-fetch-site": "cross-site" });
      expect([confirm.status, unsubscribe.status], token).toEqual([404, 404]);
      expect(confirm.body.error?.code).toBe("not_found");
    }
    // Each token works on its own route only.
    expect((await post(confirmRoute.POST, "confirm", unsubscribeToken)).status).toBe(404);
    expect((await post(unsubscribeRoute.POST, "unsubscribe", confirmToken)).status).toBe(404);
    expect((await store.alerts.destination(workspace, destination.id))?.status).toBe("unconfirmed");
  });
});

describe("the declared cross-site exception", () => {
  it("is for public routes only: a route with a session that declares it is refused when mounted", () => {
    expect(() => route({ access: "session", write: true, crossSite: "one-click-unsubscribe", subject: "x" }, async () => ({}))).toThrow(/only a public route/);
  });
});
