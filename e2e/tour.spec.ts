// A tour of every page and the states a page can be in, each visit checked once for all of: no
// console error or warning and no uncaught page error (a hydration mismatch, React's error #418: the
// server's HTML and the browser's first render differ, e.g. a date formatted in another zone or by
// another ICU, is a console error, so this is also the hydration check); none of the service's words
// in the page ("Data API", field names), which are never the product's; axe finding no serious or
// critical violation (WCAG 2 A/AA) in the light and the dark theme; and on a 375 px phone, no page
// scrolling sideways. The pages are the navigation's list (lib/ui/pages.ts) and the few pages it does
// not list; a page file under app/ that is in neither fails the first test, so a new page cannot skip
// the tour. Three browsers: New York, light, on a first visit (no zone cookie yet); Kolkata, dark,
// with the viewer's zone Berlin chosen; and a phone. Each test walks a group of visits in one browser
// context, a new page per visit with its cookies set afresh, while the context's cache keeps the
// app's scripts; the groups run in parallel. The tour signs in with keys of its own (derived from the
// demo keys: the same data, a workspace of its own), so no other spec's notes, views or watching
// change what a page shows while the tour reads it.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { NAV_PAGES } from "../lib/ui/pages";
import { expectNoHorizontalOverflow, expectNoSeriousViolations } from "./helpers/a11y";
import { utcDate } from "./helpers/clock";
import { sandboxGet } from "./helpers/sandbox";
import { deriveDemoKey } from "../sandbox/keys";
import { BASE_URL, signInWithKey, type DemoKind } from "./helpers/session";

test.describe.configure({ mode: "parallel" });

/** Pages outside the navigation, by their route pattern. */
const OTHER_PAGES = ["/visitors/[id]", "/sign-in"] as const;

/**
 * Pages another spec tours, axe in both themes and 375 px, because they need a link made first: a share
 * link's page (shares.spec.ts), an e-mail's confirmation and unsubscribe pages (email.spec.ts, which
 * also fails on a console error or warning or a page error there).
 */
const TOURED_ELSEWHERE = ["/s/[token]", "/mail/confirm/[token]", "/mail/unsubscribe/[token]"] as const;

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

/**
 * A page to open, signed in as a demo workspace (or signed out), the status its document answers
 * with, and whether axe checks it (in that browser's theme).
 */
type Visit = { name: string; url: string; as: DemoKind | null; status?: 404; shell?: false; axe?: true };

/** Where the visitor pages' id goes: one real visitor of the sandbox, found before the visits. */
const ID = "{id}";
let visitorId = "";
test.beforeAll(async () => {
  visitorId = (await sandboxGet<{ data: Array<{ id: string }> }>("/visitors?limit=1&source=chatgpt")).data[0]!.id;
});

/** A past fortnight, in Berlin's days. */
const range = `from=${utcDate(-28)}&to=${utcDate(-14)}&tz=Europe/Berlin`;

/**
 * axe's time grows with the page (seconds for a table of rows, and every row is the same component):
 * on the lists it checks the first five rows and cards, and the rest of the page around them.
 */
const AXE_EXCLUDE = '[data-testid="visitor-row"]:nth-child(n+6), [data-testid="visitor-row-card"]:nth-child(n+6), [data-testid="mention-card"]:nth-child(n+6)';

/** The pages axe checks in both themes (every page of the app but /platforms, whose spec checks it at two widths). */
const AXE_PAGES = new Set(["/", "/visitors", "/mentions", "/locations", "/queries", "/intelligence", "/settings"]);
const nav = (as: DemoKind, query = "") =>
  NAV_PAGES.map((p) => ({
    name: query ? `${p.label}, a Berlin range` : p.label,
    url: `${p.href}${query}`,
    as,
    ...(AXE_PAGES.has(p.href) ? { axe: true as const } : {}),
  }));

/** The phone's visits: every page the a11y tour walked, where nothing may scroll sideways. */
const phoneVisits: Visit[] = [
  { name: "sign-in", url: "/sign-in", as: null },
  ...NAV_PAGES.map((p) => ({ name: p.label, url: p.href, as: "pro" as const })),
  { name: "a visitor", url: `/visitors/${ID}`, as: "pro" },
  { name: "an unknown visitor", url: "/visitors/vis_unknown", as: "pro", status: 404 },
  { name: "a page that does not exist", url: "/no-such-page", as: "pro", status: 404, shell: false },
];

/**
 * The browsers, each in a zone other than the server's (which draws in UTC, or in the viewer's zone
 * from its cookie), and what each visits: every page, and the states worth seeing once.
 */
const browsers: Array<{
  title: string;
  use: Parameters<typeof test.use>[0];
  cookies: Array<{ name: string; value: string }>;
  firstVisit: boolean;
  /** The phone: no page may scroll sideways. */
  phone?: true;
  visits: Visit[];
}> = [
  {
    // A first visit: no zone cookie yet (the server draws in UTC, the browser stores its zone and redraws).
    title: "New York browser, light, first visit",
    use: { timezoneId: "America/New_York", colorScheme: "light" },
    cookies: [],
    firstVisit: true,
    visits: [
      { name: "sign-in", url: "/sign-in", as: null, axe: true },
      ...nav("pro"),
      { name: "a visitor", url: `/visitors/${ID}`, as: "pro", axe: true },
      { name: "an unknown visitor", url: "/visitors/vis_doesnotexist0", as: "pro", status: 404, axe: true },
      { name: "a page that does not exist", url: "/no-such-page", as: "pro", status: 404, shell: false, axe: true },
      { name: "a refused filter", url: "/visitors?source=myspace", as: "pro" },
      { name: "a date that is not one", url: "/?from=2026-02-31&to=2026-11-05", as: "pro" },
      { name: "a backwards list range", url: "/mentions?from=2026-11-10&to=2026-11-01", as: "pro" },
      { name: "an unknown zone", url: "/platforms?from=2026-11-01&to=2026-11-05&tz=Mars/Olympus", as: "pro" },
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
      { name: "sign-in", url: "/sign-in", as: null, axe: true },
      ...nav("pro", `?${range}`),
      { name: "a visitor, oldest first, in Kolkata", url: `/visitors/${ID}?order=oldest&tz=Asia/Kolkata`, as: "pro", axe: true },
      { name: "an unknown visitor", url: "/visitors/vis_doesnotexist0", as: "pro", status: 404, axe: true },
      { name: "a page that does not exist", url: "/no-such-page", as: "pro", status: 404, shell: false, axe: true },
      { name: "the empty workspace's overview", url: "/", as: "empty" },
      { name: "the empty workspace's visitors", url: "/visitors", as: "empty" },
      { name: "the empty workspace's platforms", url: "/platforms", as: "empty" },
      { name: "no access to intelligence", url: "/intelligence", as: "limited" },
      { name: "no access to a timeline", url: `/visitors/${ID}`, as: "limited" },
    ],
  },
  {
    title: "375 px phone",
    use: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
    cookies: [],
    firstVisit: false,
    phone: true,
    visits: phoneVisits,
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
  // A hydration mismatch (React's #418-#425) names no element in a production build: keep the page as
  // the server sent it and as the browser had it at that moment, so the report shows what differed.
  let sentHtml = "";
  page.on("response", async (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame() && r.status() === 200) sentHtml = await r.text().catch(() => "");
  });
  page.on("pageerror", async (e) => {
    problems.push(`pageerror: ${e.message}`);
    if (!/Minified React error #4(1[89]|2[0-5])/.test(e.message)) return;
    const shownHtml = await page.evaluate(() => document.documentElement.outerHTML).catch(() => "");
    await test.info().attach(`hydration mismatch on ${url}: as sent.html`, { body: sentHtml, contentType: "text/html" });
    await test.info().attach(`hydration mismatch on ${url}: as shown.html`, { body: shownHtml, contentType: "text/html" });
    // And in the run's output, which is all a CI run keeps: the texts only one of the two has.
    const texts = (html: string) =>
      new Set([...html.replace(/<script[\s\S]*?<\/script>/g, "").matchAll(/>([^<>]+)</g)].map((m) => m[1]!.trim()).filter(Boolean));
    const [sent, shown] = [texts(sentHtml), texts(shownHtml)];
    const only = (a: Set<string>, b: Set<string>) => [...a].filter((t) => !b.has(t)).slice(0, 20);
    console.log(`hydration mismatch on ${url}\n  only as sent: ${JSON.stringify(only(sent, shown))}\n  only as shown: ${JSON.stringify(only(shown, sent))}`);
  });
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

test("this tour visits every page of the app, axe checks each in both themes and the phone each", () => {
  const visited = new Set<string>([...NAV_PAGES.map((p) => p.href), ...OTHER_PAGES]);
  expect(pageRoutes().sort()).toEqual([...visited, ...TOURED_ELSEWHERE].sort());
  const route = (v: Visit) => v.url.split("?")[0]!.replace(ID, "[id]");
  for (const b of browsers) for (const page of visited) expect(b.visits.map(route), `${b.title}: ${page}`).toContain(page);
  const [light, dark] = browsers.map((b) =>
    b.visits
      .filter((v) => v.axe)
      .map(route)
      .sort(),
  );
  expect(light).toEqual(dark);
  // Every page in both themes, but /platforms (platforms.spec.ts checks it at 1440 and 375 px).
  for (const page of visited) if (page !== "/platforms") expect(light, page).toContain(page);
});

// Visits in groups of four per test, each group in one browser context.
const GROUP = 4;
for (const browser of browsers) {
  test.describe(browser.title, () => {
    test.use(browser.use);
    for (let start = 0; start < browser.visits.length; start += GROUP) {
      const group = browser.visits.slice(start, start + GROUP);
      const checks = browser.phone ? "no sideways scroll" : group.some((v) => v.axe) ? "axe" : "";
      test(`no console error or warning, no page error${checks ? `, ${checks}` : ""}: ${group.map((v) => v.name).join("; ")}`, async ({ context }) => {
        test.setTimeout(60_000 * group.length);
        for (const visit of group) {
          await context.clearCookies();
          if (browser.cookies.length) await context.addCookies(browser.cookies.map((c) => ({ ...c, url: BASE_URL })));
          const page = await context.newPage();
          if (visit.as) await signInWithKey(page, deriveDemoKey(visit.as, "tour"), { zone: !browser.firstVisit });
          const url = visit.url.replace(ID, encodeURIComponent(visitorId));
          // The signed-in pages' shell stores the zone (not the sign-in page's, nor the app-wide 404 page).
          const reloads = browser.firstVisit && visit.as !== null && visit.shell !== false;
          expect.soft(await problemsOf(page, url, visit.status ?? 200, reloads), visit.name).toEqual([]);
          if (visit.axe) await expectNoSeriousViolations(page, `${visit.url} (${browser.title})`, undefined, AXE_EXCLUDE);
          if (browser.phone) await expectNoHorizontalOverflow(page, `${visit.url} at 375 px`);
          await page.close();
        }
      });
    }
  });
}
