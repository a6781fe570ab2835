// The one declaration of the pages' parameters (page-params.ts) against the pages themselves: every
// search-params.ts under app/(app) reads exactly the parameters declared for its page (a parser added
// to a page but not to the declaration, or the other way round, fails here), every page declared has
// one, and a relative range (`range=7d`) is sent on to the days it means as of the moment it is opened;
// an older mentions link's `highlight` is sent on as the filter `query`.
import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { proxy } from "@/proxy";
import { relativeRangeSearch } from "@/lib/range/api-period";
import { sessionCookie } from "@/testing/in-process";
import { isQueryPage, legacyHighlightSearch, PAGE_PARAMS } from "./page-params";

const APP_DIR = path.resolve(__dirname, "../../app/(app)");

/** Every search-params.ts under app/(app), with the page path its folder serves (route groups left out). */
function searchParamFiles(dir = APP_DIR, segments: string[] = []): { file: string; page: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return searchParamFiles(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
    return entry.name === "search-params.ts" ? [{ file: path.join(dir, entry.name), page: `/${segments.join("/")}` }] : [];
  });
}

/** The parameter names a search-params module reads: its parser objects' keys, and what its loaders return. */
function namesOf(mod: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (const value of Object.values(mod)) {
    if (typeof value === "function") for (const key of Object.keys((value as (search: Record<string, string>) => object)({}))) names.add(key);
    else if (value && typeof value === "object") for (const key of Object.keys(value)) names.add(key);
  }
  return [...names].sort();
}

describe("each page's parameters, declared once", () => {
  it("every page's search-params.ts reads exactly its declared parameters; every declared page has one", async () => {
    const files = searchParamFiles();
    const pages = files.map((f) => f.page);
    for (const page of Object.keys(PAGE_PARAMS)) expect(pages, page).toContain(page);
    for (const { file, page } of files) {
      // A visitor's page takes no saved query (its own `order` only): it is not a page views may name.
      if (page === "/visitors/[id]") {
        expect(isQueryPage(page)).toBe(false);
        continue;
      }
      expect(isQueryPage(page), `${page} (${file}) is not declared in lib/ui/page-params.ts`).toBe(true);
      const names = namesOf((await import(file)) as Record<string, unknown>);
      expect(names, file).toEqual([...PAGE_PARAMS[page as keyof typeof PAGE_PARAMS]].sort());
    }
  });

  it("a relative range opens as the days it means when opened, in the URL's zone or else the viewer's", () => {
    const at = (iso: string) => Date.parse(iso);
    const search = (q: string) => new URLSearchParams(q);
    expect(relativeRangeSearch(search("range=7d&source=chatgpt"), "UTC", at("2026-11-18T10:00:00Z"))).toBe(
      "?from=2026-11-12&source=chatgpt&to=2026-11-18&tz=UTC",
    );
    // A week later the same link is the week before that day.
    expect(relativeRangeSearch(search("range=7d&source=chatgpt"), "UTC", at("2026-11-25T10:00:00Z"))).toBe(
      "?from=2026-11-19&source=chatgpt&to=2026-11-25&tz=UTC",
    );
    // 23:30 UTC is already the next day in Berlin: the viewer's zone counts, and the URL's `tz` wins over it.
    expect(relativeRangeSearch(search("range=today"), "Europe/Berlin", at("2026-11-18T23:30:00Z"))).toBe("?from=2026-11-19&to=2026-11-19&tz=Europe%2FBerlin");
    expect(relativeRangeSearch(search("range=30d&tz=America/New_York"), "Europe/Berlin", at("2026-11-18T23:30:00Z"))).toBe(
      "?from=2026-10-20&to=2026-11-18&tz=America%2FNew_York",
    );
    // Nothing to send on: no range, dates given (they win), a value that is not a preset, two values.
    for (const q of ["source=chatgpt", "range=7d&from=2026-11-01", "range=8d", "range=7d&range=30d"])
      expect(relativeRangeSearch(search(q), "UTC", at("2026-11-18T10:00:00Z")), q).toBeNull();
  });
});

describe("a relative range in a page's URL", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is sent on (307) by the proxy to the days it means now, on every page the range drives, in the viewer's zone", async () => {
    process.env.DATA_API_BASE_URL ??= "http://127.0.0.1:9/v1";
    vi.useFakeTimers({ toFake: ["Date"] });
    const cookie = `${await sessionCookie("svc_sk_test_demo_pro_4e8b2a6c9d1f")}; viewer_tz=Pacific%2FAuckland`;
    const open = (url: string) => proxy(new NextRequest(`http://localhost:3000${url}`, { headers: { cookie } }));
    // 18 Nov, 12:00 UTC is already 19 Nov in Auckland (UTC+13).
    vi.setSystemTime(new Date("2026-11-18T12:00:00Z"));
    for (const page of Object.keys(PAGE_PARAMS)) {
      const res = await open(`${page}?range=7d`);
      expect(res.status, page).toBe(307);
      const to = new URL(res.headers.get("location")!);
      expect(`${to.pathname}${to.search}`, page).toBe(`${page}?from=2026-11-13&to=2026-11-19&tz=Pacific%2FAuckland`);
    }
    // Opened a week later, the same link is that week.
    vi.setSystemTime(new Date("2026-11-25T12:00:00Z"));
    const later = await open("/visitors?range=7d&source=chatgpt");
    expect(new URL(later.headers.get("location")!).search).toBe("?from=2026-11-20&source=chatgpt&to=2026-11-26&tz=Pacific%2FAuckland");
    // Not on a page the range does not drive, nor for a value that is not a preset (the header names it).
    for (const url of ["/settings?range=7d", "/visitors/vis_abc?range=7d", "/visitors?range=8d"]) expect((await open(url)).status, url).toBe(200);
  });

  it("a page opened by a browser without the zone cookie first stores the browser's zone, then loads again; a link's tz goes straight on", async () => {
    process.env.DATA_API_BASE_URL ??= "http://127.0.0.1:9/v1";
    const session = await sessionCookie("svc_sk_test_demo_pro_4e8b2a6c9d1f");
    const page = { "sec-fetch-dest": "document", accept: "text/html" };
    const open = (url: string, headers: Record<string, string>) => proxy(new NextRequest(`http://localhost:3000${url}`, { headers }));
    for (const url of ["/visitors?range=7d", "/?period=7d", "/settings", "/visitors/vis_abc"]) {
      const first = await open(url, { ...page, cookie: session });
      expect(first.status, url).toBe(200);
      const html = await first.text();
      // The page's script, allowed by this answer's nonce, stores the zone and loads the page again.
      const nonce = /'nonce-([^']+)'/.exec(first.headers.get("content-security-policy") ?? "")?.[1];
      expect(html).toContain(`<script nonce="${nonce}">`);
      expect(html).toContain('searchParams.set(recent?"tz":"set_tz",tz)');
      expect(first.headers.get("x-frame-options")).toBe("DENY");
    }
    // The page asked for again with the browser's zone: the cookie set on the way back to it.
    const stored = await open("/visitors?range=7d&set_tz=America%2FNew_York", { ...page, cookie: session });
    expect(stored.status).toBe(307);
    expect(new URL(stored.headers.get("location")!).search).toBe("?range=7d");
    expect(stored.headers.get("set-cookie")).toMatch(/^viewer_tz=America%2FNew_York; Path=\/; Max-Age=31536000; SameSite=Lax/);
    // A zone that is none is UTC.
    expect((await open("/settings?set_tz=Mars%2FBase", { ...page, cookie: session })).headers.get("set-cookie")).toMatch(/^viewer_tz=UTC;/);
    // The zone in the link: no first step (the link's zone wins), the range sent on in it.
    const named = await open("/visitors?range=7d&tz=Europe/Berlin", { ...page, cookie: session });
    expect(named.status).toBe(307);
    expect(new URL(named.headers.get("location")!).searchParams.get("tz")).toBe("Europe/Berlin");
    // Next's own requests for a route's data are never answered with a page.
    expect((await open("/visitors?range=7d", { cookie: session, rsc: "1" })).status).toBe(307);
    // A cookie this server cannot read is UTC, not a reason to ask again and again.
    expect((await open("/visitors?range=7d", { ...page, cookie: `${session}; viewer_tz=Mars%2FBase` })).status).toBe(307);
  });
});

describe("an older mentions link with `highlight`", () => {
  it("is the filter `query` now: the question as written, the other parameters kept, a `query` given winning", () => {
    const search = (q: string) => new URLSearchParams(q);
    expect(legacyHighlightSearch(search("tz=UTC&highlight=Best+tool%3F&from=2026-11-01&to=2026-11-30&platform=claude"))).toBe(
      "?from=2026-11-01&platform=claude&query=Best+tool%3F&to=2026-11-30&tz=UTC",
    );
    expect(legacyHighlightSearch(search("highlight=a&query=b"))).toBe("?query=b");
    // A blank highlight marked nothing: it is dropped, not made a filter the route would refuse.
    expect(legacyHighlightSearch(search("highlight=%20&sentiment=negative"))).toBe("?sentiment=negative");
    expect(legacyHighlightSearch(search("highlight="))).toBe("");
    expect(legacyHighlightSearch(search("query=b"))).toBeNull();
  });

  it("is sent on (307) by the proxy, on /mentions only, in a first visit too (no zone cookie needed)", async () => {
    process.env.DATA_API_BASE_URL ??= "http://127.0.0.1:9/v1";
    const session = await sessionCookie("svc_sk_test_demo_pro_4e8b2a6c9d1f");
    const open = (url: string) => proxy(new NextRequest(`http://localhost:3000${url}`, { headers: { cookie: session } }));
    const res = await open("/mentions?from=2026-11-01&highlight=Best%20tool&to=2026-11-30&tz=UTC");
    expect(res.status).toBe(307);
    const to = new URL(res.headers.get("location")!);
    expect(`${to.pathname}${to.search}`).toBe("/mentions?from=2026-11-01&query=Best+tool&to=2026-11-30&tz=UTC");
    expect((await open("/mentions?query=Best%20tool")).status).toBe(200);
    expect((await open("/queries?highlight=x")).status).toBe(200);
  });
});
