// Open redirect (outside review, finding 1): `?next=` must never send a user off this site, whatever
// trick it uses. Here in the browser after signing in through the sign-in page, for a trick of each
// kind a browser reads differently from a plain path: protocol-relative, backslashes, a tab or a
// newline (which URL parsing drops), a leading space, dot segments, encoded slashes, other schemes.
// Every trick of the table (lib/ui/open-redirect-tricks.ts) goes through the one function the page
// sends the browser on with (safeNextPath: lib/ui/safe-next.test.ts, each one "/" and same-origin in
// every reading), and through the server's redirects (the sign-in page's for a signed-in user, the
// proxy's next=: testing/security.system.test.ts).
import { expect, test } from "@playwright/test";
import { OPEN_REDIRECT_TRICKS } from "../lib/ui/open-redirect-tricks";
import { BASE_URL } from "./helpers/session";

const label = (trick: string) => JSON.stringify(trick).slice(0, 60);

const TRICKS = [
  "//evil.example/phish",
  "/\\evil.example/phish",
  "\\\\evil.example/phish",
  "/\t/evil.example/phish",
  "/\n/evil.example/phish",
  " //evil.example/phish",
  "/.//evil.example/phish",
  "/%2F%2Fevil.example/phish",
  "https://evil.example/phish",
  "javascript:alert(document.domain)",
];

test("open redirect: after signing in, the browser stays on this site for a trick of each kind", async ({ browser }) => {
  for (const trick of TRICKS) expect(OPEN_REDIRECT_TRICKS, label(trick)).toContain(trick);
  const offSite: string[] = [];
  const landed: string[] = [];
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
  for (trick of TRICKS) {
    await context.clearCookies();
    await page.goto(`/sign-in?next=${encodeURIComponent(trick)}`);
    await page.getByTestId("demo-empty").click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { waitUntil: "commit" });
    landed.push(`${label(trick)} -> ${page.url()}`);
  }
  await context.close();
  expect(offSite).toEqual([]);
  expect(landed.filter((l) => !l.endsWith(` -> ${BASE_URL}/`))).toEqual([]);
  expect(landed).toHaveLength(TRICKS.length);
});
