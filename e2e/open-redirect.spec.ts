// Open redirect (outside review, finding 1): `?next=` must never send a user off this site, whatever
// trick it uses. Checked on the server's redirects (the sign-in page for a signed-in user, and the
// proxy's `next=` for a signed-out page request) and in the browser after signing in.
import { expect, test } from "@playwright/test";
import { OPEN_REDIRECT_TRICKS } from "../lib/ui/open-redirect-tricks";
import { safeNextPath } from "../lib/ui/safe-next";
import { rawRequest } from "./helpers/raw-http";
import { BASE_URL } from "./helpers/session";

const label = (trick: string) => JSON.stringify(trick).slice(0, 60);

async function signedInCookie(request: import("@playwright/test").APIRequestContext): Promise<string> {
  const res = await request.post("/api/session", { data: { demo: "empty" }, headers: { origin: BASE_URL } });
  expect(res.status()).toBe(200);
  return res.headers()["set-cookie"]!.split(";")[0]!;
}

/** The Location header as the browser would resolve it: must stay on this origin. */
function expectSameOrigin(location: string | undefined, what: string) {
  expect(location, what).toBeTruthy();
  expect(new URL(location!, BASE_URL).origin, `${what} -> ${location}`).toBe(BASE_URL);
  expect(location!.startsWith("//") || location!.startsWith("/\\"), `${what} -> ${location}`).toBe(false);
}

test("open redirect: the sign-in page's redirect for a signed-in user stays on this site for every trick", async ({ request }) => {
  const cookie = await signedInCookie(request);
  for (const trick of OPEN_REDIRECT_TRICKS) {
    const res = await request.get(`/sign-in?next=${encodeURIComponent(trick)}`, { headers: { cookie }, maxRedirects: 0 });
    expect(res.status(), label(trick)).toBe(307);
    expectSameOrigin(res.headers()["location"], label(trick));
    expect(new URL(res.headers()["location"]!, BASE_URL).pathname, label(trick)).toBe("/");
  }
  // And a genuine path is honoured.
  const ok = await request.get(`/sign-in?next=${encodeURIComponent("/visitors?source=claude")}`, { headers: { cookie }, maxRedirects: 0 });
  expect(ok.headers()["location"]).toBe("/visitors?source=claude");
});

test("open redirect: the proxy's next= for a signed-out page request carries only a safe path", async () => {
  const paths = [
    "//evil.example/phish",
    "/.//evil.example/phish",
    "/%2e//evil.example/phish",
    "/%2F%2Fevil.example/phish",
    "/x/..//evil.example/phish",
    "/\\evil.example/phish",
    "/%5Cevil.example/phish",
    "/%09/evil.example/phish",
  ];
  for (const path of paths) {
    const res = await rawRequest(`GET ${path} HTTP/1.1`);
    // A redirect (to sign-in) or a refusal; never a 5xx.
    expect(res.status, path).toBeLessThan(500);
    const location = res.headers["location"];
    if (location === undefined) continue;
    expectSameOrigin(location, path);
    const next = new URL(location, BASE_URL).searchParams.get("next");
    if (next !== null) expect(safeNextPath(next, "<unsafe>"), `${path} -> next=${next}`).toBe(next);
  }
});

test("open redirect: after signing in, the browser stays on this site for every trick", async ({ browser }) => {
  test.setTimeout(120_000);
  const offSite: string[] = [];
  const landed: string[] = [];
  const worker = async (queue: string[]) => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    let trick = "";
    await context.route("**/*", (route) => {
      const request = route.request();
      const url = new URL(request.url());
      if (url.origin !== BASE_URL) {
        offSite.push(`${label(trick)} -> ${url.href}`);
        return route.abort();
      }
      // Where the browser lands is all this test needs: the landing page itself is not rendered.
      if (request.isNavigationRequest() && !url.pathname.startsWith("/sign-in"))
        return route.fulfill({ contentType: "text/html", body: "<title>landed</title>" });
      return route.continue();
    });
    const page = await context.newPage();
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      trick = next;
      await context.clearCookies();
      await page.goto(`/sign-in?next=${encodeURIComponent(trick)}`);
      await page.getByTestId("demo-empty").click();
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { waitUntil: "commit" });
      landed.push(`${label(trick)} -> ${page.url()}`);
    }
    await context.close();
  };
  const queue = [...OPEN_REDIRECT_TRICKS];
  await Promise.all(Array.from({ length: 2 }, () => worker(queue)));
  expect(offSite).toEqual([]);
  expect(landed.filter((l) => !l.endsWith(` -> ${BASE_URL}/`))).toEqual([]);
  expect(landed).toHaveLength(OPEN_REDIRECT_TRICKS.length);
});
