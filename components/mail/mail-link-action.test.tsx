// @vitest-environment jsdom
// An e-mail's link pages, their button against the app's own routes and a real store (no session):
// showing the page changes nothing; the confirmation page's button confirms once (again: the link is
// spent, said); the unsubscribe page's button unsubscribes. And proxy.ts lets the pages through signed
// out with `noindex` and `no-referrer`, and hands a mail client's one-click POST to the page's address
// (RFC 8058) to the unsubscribe route.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { NextRequest } from "next/server";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { proxy } from "@/proxy";
import type { Store } from "@/lib/store/store";
import type { WorkspaceId } from "@/lib/store/schema";
import { appRoutesAsFetch, preloadRoutes, type SentRequest } from "@/testing/app-fetch";
import { serverContextPerTest } from "@/testing/in-process";
import { storesForFile } from "@/testing/stores";
import { MailLinkAction } from "./mail-link-action";

const stores = storesForFile();
const overrideContext = serverContextPerTest();
let store: Store;
let ws: WorkspaceId;
let sent: SentRequest[];

beforeAll(async () => {
  await preloadRoutes(["/api/mail/confirm/x", "/api/mail/unsubscribe/x"]);
});
beforeEach(async () => {
  store = await stores.open("embedded");
  overrideContext({ store: async () => store });
  ws = (await store.workspaces.workspaceForKey("svc_sk_test_mail_pages_0001")).id;
  sent = [];
  vi.stubGlobal("fetch", appRoutesAsFetch("", sent));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const made = () => store.alerts.createEmailDestination(ws, { name: "Maria", to: "maria.lopez@example.org", toHint: "m…@example.org" });

describe("an e-mail's link pages", () => {
  it("the confirmation page changes nothing until its button is pressed, which confirms once", async () => {
    const { destination, confirmToken } = await made();
    renderWithProviders(<MailLinkAction action="confirm" token={confirmToken} />);
    expect(screen.getByRole("heading", { name: "Confirm your address" })).toBeTruthy();
    expect(sent).toEqual([]);
    expect((await store.alerts.destination(ws, destination.id))?.status).toBe("unconfirmed");

    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Confirmed"));
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`POST /api/mail/confirm/${confirmToken}`]);
    expect((await store.alerts.destination(ws, destination.id))?.status).toBe("active");
  });

  it("a spent confirmation link says so; the unsubscribe page's button unsubscribes", async () => {
    const { destination, confirmToken, unsubscribeToken } = await made();
    await store.alerts.confirmEmail(confirmToken);
    const spent = renderWithProviders(<MailLinkAction action="confirm" token={confirmToken} />);
    fireEvent.click(screen.getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("does not work"));
    spent.unmount();

    renderWithProviders(<MailLinkAction action="unsubscribe" token={unsubscribeToken} />);
    fireEvent.click(screen.getByRole("button", { name: "Unsubscribe" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("Unsubscribed"));
    expect((await store.alerts.destination(ws, destination.id))?.status).toBe("unsubscribed");
  });
});

describe("proxy.ts and the e-mail's link pages", () => {
  const token = "A".repeat(43);
  it.each(["confirm", "unsubscribe"])("/mail/%s/{token} opens signed out, noindex and no-referrer", async (action) => {
    const res = await proxy(new NextRequest(`http://localhost:3000/mail/${action}/${token}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("a one-click POST to the unsubscribe page's address goes to its route; a POST to the confirmation page does not", async () => {
    const oneClick = await proxy(new NextRequest(`http://localhost:3000/mail/unsubscribe/${token}`, { method: "POST", body: "List-Unsubscribe=One-Click" }));
    expect(oneClick.headers.get("x-middleware-rewrite")).toBe(`http://localhost:3000/api/mail/unsubscribe/${token}`);
    const confirm = await proxy(new NextRequest(`http://localhost:3000/mail/confirm/${token}`, { method: "POST" }));
    expect(confirm.headers.get("x-middleware-rewrite")).toBeNull();
    // Anything deeper is a page like any other: signed out, to sign in.
    expect((await proxy(new NextRequest(`http://localhost:3000/mail/unsubscribe/${token}/x`))).status).toBe(307);
  });
});
