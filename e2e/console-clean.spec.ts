// Every page, and the states a page can be in, loads without a console error or warning and without
// an uncaught page error. A hydration mismatch (React's error #418: the server's HTML and the
// browser's first render differ, e.g. a date formatted in another zone or by another ICU, a value
// only the browser knows) is a console error, so this is also the hydration check. The pages are the
// navigation's list (lib/ui/pages.ts) and the few pages it does not list; a page file under app/ that
// is in neither fails the first test, so a new page cannot skip the check.
// Browsers in a zone other than the server's, with and without the viewer's zone cookie, light and dark.
// Each page's visible text is also read for the service's words ("Data API", field names), which are
// never the product's.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { NAV_PAGES } from "../lib/ui/pages";
import { utcDate } from "./helpers/clock";
import { sandboxGet } from "./helpers/sandbox";
import { BASE_URL, signIn, type DemoKind } from "./helpers/session";

/** Pages outside the navigation, by their route pattern. */
const OTHER_PAGES = ["/visitors/[id]", "/sign-in"] as const;

/** Each app/**\/page.tsx as its route: route groups left out ("(app)"), dynamic segments as written ("[id]"). */
function pageRoutes(dir = join(__dirname, "..", "app")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "api" ? [] : pageRoutes(path);
    if (entry.name !== "page.tsx") return [];
    const segments = relative(join(__dirname, "..", "app"), dir)
      .split(sep)
      .filter((s) => s && !/^\(.*\)$/.test(s));
    return [`/${segments.join("/")}`];
  });
}

/** Words of the service behind the dashboard that no page may show a marketer. */
const DEVELOPER_WORDS = ["Data API", "updated_at", "undefined", "NaN"];

/** A page to open, signed in as a demo workspace (or signed out), and the status its document answers with. */
type Visit = { name: string; url: string; as: DemoKind | null; status?: 404; shell?: false };

/** Where the visitor pages' id goes: one real visitor of the sandbox, found before the visits. */
const ID = "{id}";
let visitorId = "";
test.beforeAll(async () => {
  visitorId = (await sandboxGet<{ data: Array<{ id: string }> }>("/visitors?limit=1&source=chatgpt")).data[0]!.id;
});

/** A past fortnight, in Berlin's days. */
const range = `from=${utcDate(-28)}&to=${utcDate(-14)}&tz=Europe/Berlin`;

/**
 * The browsers, each in a zone other than the server's (which draws in UTC, or in the viewer's zone
 * from its cookie), and what each visits: every page, and the states worth seeing once.
 */
const browsers: Array<{
  title: string;
  use: { timezoneId: string; colorScheme: "light" | "dark" };
  cookies: Array<{ name: string; value: string }>;
  firstVisit: boolean;
  visits: Visit[];
}> = [
  {
    // A first visit: no zone cookie yet (the server draws in UTC, the browser stores its zone and redraws).
    title: "New York browser, light, first visit",
    use: { timezoneId: "America/New_York", colorScheme: "light" },
    cookies: [],
    firstVisit: true,
    visits: [
      ...NAV_PAGES.map((p) => ({ name: p.label, url: p.href, as: "pro" as const })),
      { name: "a visitor", url: `/visitors/${ID}`, as: "pro" },
      { name: "an unknown visitor", url: "/visitors/vis_doesnotexist0", as: "pro", status: 404 },
      { name: "a page that does not exist", url: "/no-such-page", as: "pro", status: 404, shell: false },
      { name: "a refused filter", url: "/visitors?source=myspace", as: "pro" },
      { name: "a date that is not one", url: "/?from=2026-02-31&to=2026-11-05", as: "pro" },
      { name: "a backwards list range", url: "/mentions?from=2026-11-10&to=2026-11-01", as: "pro" },
      { name: "an unknown zone", url: "/platforms?from=2026-11-01&to=2026-11-05&tz=Mars/Olympus", as: "pro" },
      { name: "sign-in", url: "/sign-in", as: null },
      { name: "sign-in after the session ended", url: "/sign-in?reason=expired&next=%2Fvisitors", as: null },
    ],
  },
  {
    // A zone chosen in Settings that is not the browser's, and the dark theme chosen by cookie.
    title: "Kolkata browser, dark, viewer zone Berlin",
    use: { timezoneId: "Asia/Kolkata", colorScheme: "dark" },
    cookies: [
      { name: "viewer_tz", value: encodeURIComponent("Europe/Berlin") },
      { name: "theme", value: "dark" },
    ],
    firstVisit: false,
    visits: [
      ...NAV_PAGES.map((p) => ({ name: `${p.label}, a Berlin range`, url: `${p.href}?${range}`, as: "pro" as const })),
      { name: "a visitor, oldest first, in Kolkata", url: `/visitors/${ID}?order=oldest&tz=Asia/Kolkata`, as: "pro" },
      { name: "the empty workspace's overview", url: "/", as: "empty" },
      { name: "the empty workspace's visitors", url: "/visitors", as: "empty" },
      { name: "the empty workspace's platforms", url: "/platforms", as: "empty" },
      { name: "no access to intelligence", url: "/intelligence", as: "limited" },
      { name: "no access to a timeline", url: `/visitors/${ID}`, as: "limited" },
      { name: "sign-in", url: "/sign-in", as: null },
    ],
  },
];

/**
 * Opens `url` and returns every console error and warning and every uncaught error it caused. A page
 * that is a 404 on purpose makes Chromium itself log the document's status ("Failed to load
 * resource: … 404"): that one line, for that document only, is the status asked for, not a problem.
 */
async function problemsOf(page: Page, url: string, status: number, reloads: boolean): Promise<string[]> {
  const problems: string[] = [];
  const documentUrl = new URL(url, BASE_URL).href;
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    const ownStatus =
      status !== 200 && m.location().url === documentUrl && m.text() === `Failed to load resource: the server responded with a status of ${status} (Not Found)`;
    if (!ownStatus) problems.push(`console.${m.type()}: ${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  // The status of the page as finally loaded (a first visit's page of a few bytes, then a redirect, come first).
  let documentStatus: number | undefined;
  page.on("response", (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame() && (r.status() < 300 || r.status() >= 400)) documentStatus = r.status();
  });
  await page.goto(url);
  if (reloads) {
    // A signed-in page without the zone cookie is loaded with the browser's zone, kept in the cookie.
    await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === "viewer_tz"), { timeout: 30_000 }).toBe(true);
    await page.waitForURL(documentUrl);
  }
  await expect.poll(() => documentStatus, { message: url }).toBe(status);
  // Every widget streams in and hydrates (a cold overview counts for a while on a loaded machine).
  await expect(page.getByTestId("loading")).toHaveCount(0, { timeout: 80_000 });
  await page.waitForLoadState("networkidle");
  // A late effect (the zone cookie's redraw, the theme) has had its chance to complain.
  await page.waitForTimeout(500);
  // The page speaks the product's words: never the names of the service behind it or its fields.
  // Text the page quotes (an AI platform's answer, marked data-content) may say anything.
  const text = await page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const quoted of body.querySelectorAll("[data-content], script, style, template")) quoted.remove();
    return body.textContent ?? "";
  });
  for (const word of DEVELOPER_WORDS)
    if (text.includes(word))
      problems.push(`the page says "${word}": ${text.slice(Math.max(0, text.indexOf(word) - 60), text.indexOf(word) + 60).replace(/\s+/g, " ")}`);
  return problems;
}

test("this spec visits every page of the app", () => {
  const visited = new Set<string>([...NAV_PAGES.map((p) => p.href), ...OTHER_PAGES]);
  expect(pageRoutes().sort()).toEqual([...visited].sort());
  const urls = browsers.flatMap((b) => b.visits.map((v) => v.url.split("?")[0]!.replace(ID, "[id]")));
  for (const route of visited) expect(urls, route).toContain(route);
});

// Visits in groups of five per test, each group in one browser context: a new page per visit, with
// the cookies of a first (or returning) visit set afresh, while the context's cache keeps the app's
// scripts (a new context per visit loads and compiles them again, the most of this spec's time).
const GROUP = 5;
for (const browser of browsers) {
  test.describe(browser.title, () => {
    test.use(browser.use);
    for (let start = 0; start < browser.visits.length; start += GROUP) {
      const group = browser.visits.slice(start, start + GROUP);
      test(`no console error or warning, no page error: ${group.map((v) => v.name).join("; ")}`, async ({ context }) => {
        test.setTimeout(60_000 * group.length);
        for (const visit of group) {
          await context.clearCookies();
          if (browser.cookies.length) await context.addCookies(browser.cookies.map((c) => ({ ...c, url: BASE_URL })));
          const page = await context.newPage();
          if (visit.as) await signIn(page, visit.as, { zone: !browser.firstVisit });
          const url = visit.url.replace(ID, encodeURIComponent(visitorId));
          // The signed-in pages' shell stores the zone (not the sign-in page's, nor the app-wide 404 page).
          const reloads = browser.firstVisit && visit.as !== null && visit.shell !== false;
          expect.soft(await problemsOf(page, url, visit.status ?? 200, reloads), visit.name).toEqual([]);
          await page.close();
        }
      });
    }
  });
}
