// The digest's links: without a share link, each figure's dashboard page for the week; through the
// share link chosen for recipients without a key, only the figures of the shared page link, to the
// link itself with the week's from, to and tz and the share's own parameters (its range dropped, and
// a custom comparison window made for that range); a share link that no longer opens leaves no link
// at all. The text, Slack's blocks and the HTML say a digest with some links missing without a gap.
import { describe, expect, it } from "vitest";
import { digestEvent, digestLinks, digestUrl, DIGEST_FIGURE_PAGES, shareWeekQuery, type DigestFigures, type DigestShare } from "./digest";
import { digestHtml } from "./digest-html";
import { eventText, slackBody } from "./messages";

const BASE = "https://analytics.example.com";
const WEEK = ["2026-11-16", "2026-11-22", "Europe/Berlin"] as const;
const TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const WEEK_QUERY = "from=2026-11-16&to=2026-11-22&tz=Europe%2FBerlin";

const platformsShare: DigestShare = {
  token: TOKEN,
  path: "/platforms",
  // Shared with a range of its own (30 days in Paris), a filter, an order and a comparison.
  query: { range: "30d", tz: "Europe/Paris", platform: "chatgpt", sort: "-visitors", compare: "year" },
};

describe("the digest's links", () => {
  it("without a share link: every figure to its dashboard page for the week", () => {
    const links = digestLinks(BASE, ...WEEK);
    expect(links).toEqual(Object.fromEntries(Object.entries(DIGEST_FIGURE_PAGES).map(([figure, page]) => [figure, `${BASE}${page}?${WEEK_QUERY}`])));
    expect(digestUrl(BASE, ...WEEK)).toBe(`${BASE}/?${WEEK_QUERY}`);
    // No PUBLIC_URL: no address to point at.
    expect(digestLinks(undefined, ...WEEK)).toBeUndefined();
    expect(digestUrl(undefined, ...WEEK)).toBeUndefined();
  });

  it("through a share link: only the figures of the shared page, to the link for the week with the share's own parameters", () => {
    const link = `${BASE}/s/${TOKEN}?platform=chatgpt&sort=-visitors&compare=year&${WEEK_QUERY}`;
    expect(digestLinks(BASE, ...WEEK, platformsShare)).toEqual({ aiVisitors: link, platforms: link });
    expect(digestUrl(BASE, ...WEEK, platformsShare)).toBe(link);

    // The overview shared: its figures (visitors, conversions, the notes); the range in every form it may take dropped.
    const overview: DigestShare = {
      token: TOKEN,
      path: "/",
      query: {
        from: "2026-01-01",
        to: "2026-01-31",
        period: "7d",
        compare: "custom",
        compare_from: "2025-12-01",
        compare_to: "2025-12-31",
        sort: "conversions",
      },
    };
    const overviewLink = `${BASE}/s/${TOKEN}?sort=conversions&${WEEK_QUERY}`;
    expect(digestLinks(BASE, ...WEEK, overview)).toEqual({ visitors: overviewLink, conversions: overviewLink, notes: overviewLink });
    expect(digestLinks(BASE, ...WEEK, { token: TOKEN, path: "/intelligence", query: {} })).toEqual({
      score: `${BASE}/s/${TOKEN}?${WEEK_QUERY}`,
      rank: `${BASE}/s/${TOKEN}?${WEEK_QUERY}`,
    });

    // A page no figure is on: no figure links; "open" still goes to the shared page for the week.
    const locations: DigestShare = { token: TOKEN, path: "/locations", query: { metric: "conversion_rate", country: "DE" } };
    expect(digestLinks(BASE, ...WEEK, locations)).toBeUndefined();
    expect(digestUrl(BASE, ...WEEK, locations)).toBe(`${BASE}/s/${TOKEN}?metric=conversion_rate&country=DE&${WEEK_QUERY}`);

    // No PUBLIC_URL: none either.
    expect(digestLinks(undefined, ...WEEK, platformsShare)).toBeUndefined();
    expect(digestUrl(undefined, ...WEEK, platformsShare)).toBeUndefined();
  });

  it("a share link chosen that no longer opens: no links at all", () => {
    expect(digestLinks(BASE, ...WEEK, null)).toBeUndefined();
    expect(digestUrl(BASE, ...WEEK, null)).toBeUndefined();
  });

  it("the share's query for the week keeps its parameters but its range", () => {
    expect(shareWeekQuery({ range: "90d", compare: "previous", country: "FR" }, ...WEEK)).toEqual({
      compare: "previous",
      country: "FR",
      from: "2026-11-16",
      to: "2026-11-22",
      tz: "Europe/Berlin",
    });
  });
});

describe("a digest with some links", () => {
  const figures: DigestFigures = {
    week: { from: WEEK[0], to: WEEK[1] },
    previous: { from: "2026-11-09", to: "2026-11-15" },
    tz: WEEK[2],
    totals: { ok: true, value: { visitors: { now: 1045, before: 835 }, aiVisitors: { now: 200, before: 250 }, conversions: { now: 10, before: 8 } } },
    platforms: { ok: true, value: [{ platform: "chatgpt", name: "ChatGPT", mentions: { now: 12, before: 10 }, visitors: 90, conversions: 4 }] },
    score: { now: 66.5, change: -3.5 },
    rank: { now: 2, of: 8, was: 3 },
    negativeMentions: { ok: true, value: [] },
    notes: [{ date: "2026-11-18", endDate: null, text: "Webinar" }],
    url: digestUrl(BASE, ...WEEK, platformsShare)!,
    links: digestLinks(BASE, ...WEEK, platformsShare)!,
  };
  const link = figures.url!;
  const now = Date.parse("2026-11-23T09:00:00Z");

  it("the text and Slack's blocks link the shared page's figures only", () => {
    const event = digestEvent(figures, now);
    const [week, platforms, , notes] = event.data.sections!;
    expect(week!.links).toEqual([{ label: "From AI platforms", url: link }]);
    expect(platforms!.links).toEqual([{ label: "AI platforms", url: link }]);
    expect(notes!.title).toBe("Notes of the week");
    expect(notes!.links).toBeUndefined();
    const text = eventText(event);
    expect(text).toContain(`  From AI platforms: ${link}`);
    expect(text).toContain(`  AI platforms: ${link}`);
    expect(text).toContain(`Open in the dashboard: ${link}`);
    expect(text).not.toContain(`${BASE}/?`);
    expect(text).not.toMatch(/https:\/\/analytics\.example\.com\/(platforms|intelligence|\?)/);

    const buttons = slackBody(event)
      .blocks.filter((b): b is { type: "actions"; elements: { text: { text: string }; url: string }[] } => (b as { type: string }).type === "actions")
      .flatMap((b) => b.elements.map((e) => [e.text.text, e.url]));
    expect(buttons).toEqual([
      ["From AI platforms", link],
      ["AI platforms", link],
      ["Open in the dashboard", link],
    ]);
  });

  it("the HTML links the shared page's figures only, and the rest as plain text", () => {
    const html = digestHtml(figures, "Weekly digest");
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(hrefs).toEqual([link, link, link]);
    expect(html).toContain(">From AI platforms</a>");
    expect(html).toMatch(/<th scope="row"[^>]*>Visitors<\/th>/);
    expect(html).not.toContain("The notes on the dashboard");
  });

  it("with no links at all (the share link chosen expired), every part says its figures without one", () => {
    const bare: DigestFigures = { ...figures, url: undefined, links: undefined };
    delete bare.url;
    delete bare.links;
    const event = digestEvent(bare, now);
    expect(event.data.url).toBeUndefined();
    expect(event.data.sections!.every((s) => s.links === undefined)).toBe(true);
    expect(eventText(event)).not.toContain("https://");
    expect(slackBody(event).blocks.some((b) => (b as { type: string }).type === "actions")).toBe(false);
    expect(digestHtml(bare, "Weekly digest")).not.toContain("href=");
  });
});
