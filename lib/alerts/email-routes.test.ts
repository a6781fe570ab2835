// E-mail destinations through the app's own route handlers, on both databases, with a real SMTP
// server on loopback (testing/smtp-receiver.ts): POST /api/alerts/destinations {kind: "email", name, to}
// is a 201 `unconfirmed` with only the address's hint answered (url_hint null), its confirmation mail
// sent at once with the confirmation page's and the unsubscribe's links (on PUBLIC_URL); without
// SMTP_URL a 400 naming `kind`; a bad address a 400 naming `to`, keeping nothing; an address the
// server refuses stops the destination, and neither the answer nor the list names the address in full;
// the answer says whether the confirmation went (a 4xx put off: not sent, still unconfirmed); "Send a
// test" to an unconfirmed address is a 409 destination_unconfirmed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, ORIGIN, serverContextPerTest, sessionCookie, TEST_NOW, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import type { StoreKind } from "@/lib/store/database";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";
import { routeFileAt } from "@/testing/api-routes";
import { startSmtpReceiver, type SmtpReceiver } from "@/testing/smtp-receiver";

const destinations = await routeFileAt("alerts/destinations");
const destinationTest = await routeFileAt("alerts/destinations/[id]/test");

upstreamForFile();
const stores = storesForFile();
const overrideContext = serverContextPerTest();
let smtp: SmtpReceiver;

const PUBLIC_URL = "https://dash.example.com";
const TO = "maria.lopez@example.org";

/** The process's pooled mailer (runtime.ts), closed so no connection outlives the test. */
function closeProcessMailer() {
  const g = globalThis as { __waMailer?: { mailer: { close(): void } } };
  g.__waMailer?.mailer.close();
  delete g.__waMailer;
}

beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
});
afterEach(() => {
  closeProcessMailer();
  vi.unstubAllEnvs();
});

function withMail() {
  vi.stubEnv("SMTP_URL", smtp.url);
  vi.stubEnv("MAIL_FROM", "Workspace Analytics <alerts@example.com>");
  vi.stubEnv("PUBLIC_URL", PUBLIC_URL);
}

async function storeFor(kind: StoreKind): Promise<Store> {
  const now = () => Date.parse(TEST_NOW);
  const store = await stores.open(kind, { now });
  overrideContext({ store: async () => store, now });
  return store;
}

type DestinationJson = {
  id: string;
  kind: string;
  name: string;
  url_hint: string | null;
  to_hint: string | null;
  status: string;
  stopped_reason: string | null;
};

async function request<T>(method: "GET" | "POST", body?: unknown) {
  const init: RequestInit = {
    method,
    headers: method === "GET" ? {} : { origin: ORIGIN, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  return call<T & Partial<ErrorJson>>(method === "GET" ? destinations.GET : destinations.POST, "/api/alerts/destinations", {
    cookie: await sessionCookie(DEMO_KEYS.pro),
    init,
  });
}
const add = (body: unknown) => request<DestinationJson>("POST", body);
const list = async () => (await request<{ data: DestinationJson[] }>("GET")).body.data;

describe.each(STORE_KINDS)("e-mail destinations' routes (%s)", (kind) => {
  it("adds an unconfirmed e-mail destination, answers only its address's hint and sends the confirmation with both links", async () => {
    withMail();
    const store = await storeFor(kind);
    const before = smtp.arrived.length;
    const created = await add({ kind: "email", name: " Maria ", to: ` ${TO} ` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: "email",
      name: "Maria",
      url_hint: null,
      to_hint: "m…@example.org",
      status: "unconfirmed",
      stopped_reason: null,
      confirmation_sent: true,
    });
    expect(created.text).not.toContain("maria.lopez");

    const [arrived] = (await smtp.waitFor(before + 1)).slice(before);
    expect(arrived!.to).toEqual([TO]);
    const mail = arrived!.mail;
    expect(mail.subject).toBe("Confirm that Workspace Analytics may e-mail you");
    const confirm = /https:\/\/dash\.example\.com\/mail\/confirm\/(\S+)/.exec(mail.text ?? "")?.[1];
    const unsubscribe = /<https:\/\/dash\.example\.com\/mail\/unsubscribe\/([^>]+)>/.exec(
      mail.headerLines.find((h) => h.key === "list-unsubscribe")?.line ?? "",
    )?.[1];
    expect(confirm).toBeDefined();
    expect(unsubscribe).toBeDefined();
    expect(mail.html).toContain(`${PUBLIC_URL}/mail/confirm/${confirm}`);
    // The links' tokens find this destination, each for its own use.
    expect((await store.alerts.destinationByToken("confirm", confirm!))?.id).toBe(created.body.id);
    expect((await store.alerts.destinationByToken("unsubscribe", unsubscribe!))?.id).toBe(created.body.id);

    const listed = await list();
    expect(listed).toEqual([expect.objectContaining({ id: created.body.id, to_hint: "m…@example.org", url_hint: null, status: "unconfirmed" })]);
    // Sealed at rest, opened only for sending.
    expect((await store.alerts.openDestination(created.body.id))?.url).toBe(TO);

    // Nothing but the confirmation goes there before it is confirmed: "Send a test" is refused, saying why.
    const test = await call<ErrorJson>(destinationTest.POST, `/api/alerts/destinations/${created.body.id}/test`, {
      cookie: await sessionCookie(DEMO_KEYS.pro),
      init: { method: "POST", headers: { origin: ORIGIN } },
      params: { id: created.body.id },
    });
    expect(test.status).toBe(409);
    expect(test.body.error).toMatchObject({ code: "destination_unconfirmed" });
    expect(smtp.arrived.length).toBe(before + 1);
  });

  it("without SMTP_URL, kind email is a 400 naming kind; a bad or missing address a 400 naming to; neither keeps anything or sends", async () => {
    await storeFor(kind);
    const before = smtp.arrived.length;
    const noSmtp = await add({ kind: "email", name: "Maria", to: TO });
    expect(noSmtp.status).toBe(400);
    expect(noSmtp.body.error).toMatchObject({ code: "invalid_parameter", param: "kind", message: expect.stringContaining("SMTP_URL") });

    withMail();
    for (const to of [
      "",
      "maria",
      "maria@",
      "@example.org",
      "maria@example",
      "maria lopez@example.org",
      "a@example.org, b@example.org",
      "a@example.org\nBcc: b@example.org",
      `${"m".repeat(250)}@example.org`,
      42,
    ]) {
      const refused = await add({ kind: "email", name: "Maria", to });
      expect(refused.status, String(to)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_parameter", param: "to" });
    }
    expect((await add({ kind: "email", name: "Maria" })).body.error).toMatchObject({ code: "invalid_parameter", param: "to" });
    // A webhook still needs its URL, named.
    expect((await add({ kind: "webhook", name: "Ops" })).body.error).toMatchObject({ code: "invalid_parameter", param: "url" });
    expect(await list()).toEqual([]);
    expect(smtp.arrived.length).toBe(before);
  });

  it("an address the mail server refuses stops the destination, saying why without the address in full", async () => {
    withMail();
    await storeFor(kind);
    const refusedTo = `gone-${kind}@example.org`;
    smtp.refuse(refusedTo, 550);
    const created = await add({ kind: "email", name: "Gone", to: refusedTo });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      to_hint: "g…@example.org",
      status: "stopped",
      stopped_reason: expect.stringContaining("refused the address"),
      confirmation_sent: false,
    });
    expect(created.text).not.toContain(refusedTo);
    expect(JSON.stringify(await list())).not.toContain(refusedTo);
  });

  it("a confirmation the mail server puts off (4xx) leaves the destination unconfirmed and says it was not sent", async () => {
    withMail();
    await storeFor(kind);
    const laterTo = `later-${kind}@example.org`;
    smtp.refuse(laterTo, 451);
    const created = await add({ kind: "email", name: "Later", to: laterTo });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "unconfirmed", stopped_reason: null, confirmation_sent: false });
    // Only the create's answer says it: the list is the destinations as they are.
    expect((await list())[0]).not.toHaveProperty("confirmation_sent");
  });
});
