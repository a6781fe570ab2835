// Open redirect (outside review, finding 1): `?next=` must never send a user off this site, whatever
// trick it uses: here in the browser after signing in. (The server's redirects, the sign-in page's
// for a signed-in user and the proxy's `next=` for a signed-out page request:
// testing/security.system.test.ts.)
import { expect, test } from "@playwright/test";
import { OPEN_REDIRECT_TRICKS } from "../lib/ui/open-redirect-tricks";
import { BASE_URL } from "./helpers/session";

const label = (trick: string) => JSON.stringify(trick).slice(0, 60);

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
      if (request.isNavigationRequest() && !url.pathname.startsWith("/sign-in")) return route.fulfill({ contentType: "text/html", body: "<title>landed</title>" });
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
