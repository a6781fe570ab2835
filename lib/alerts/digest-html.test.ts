// The digest as an HTML e-mail, from its figures alone: one self-contained document (nothing
// fetched, no script), the figures in data tables with their headers and each change beside the
// number it is compared with, the dark scheme declared with the light colours inline, everything from
// people and the Data API escaped, and a part the upstream could not give said as such.
import { describe, expect, it } from "vitest";
import { digestEvent, digestSubject, type DigestFigures } from "./digest";
import { digestHtml } from "./digest-html";

const figures: DigestFigures = {
  week: { from: "2026-11-16", to: "2026-11-22" },
  previous: { from: "2026-11-09", to: "2026-11-15" },
  tz: "Europe/Berlin",
  totals: { ok: true, value: { visitors: { now: 1045, before: 835 }, aiVisitors: { now: 200, before: 250 }, conversions: { now: 0, before: 0 } } },
  platforms: { ok: true, value: [{ platform: "chatgpt", name: "ChatGPT", mentions: { now: 12, before: 0 }, visitors: 90, conversions: 4 }] },
  score: { now: 66.5, change: -3.5 },
  rank: { now: 2, of: 8, was: 3 },
  negativeMentions: { ok: true, value: [{ platform: "Claude", query: "is <b>it</b> good?", snippet: '"meh" & slow' }] },
  notes: [{ date: "2026-11-18", endDate: "2026-11-19", text: "<img src=x onerror=alert(1)> Webinar" }],
  url: "https://analytics.example.com/?from=2026-11-16&to=2026-11-22&tz=Europe%2FBerlin",
};

describe("the digest's HTML", () => {
  const html = digestHtml(figures, "Weekly digest, 16 Nov – 22 Nov 2026: 1,045 visitors (+25.1%)");

  it("is one document that fetches nothing and runs nothing, light and dark", () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">\n<head>/);
    expect(html).toContain("<title>Weekly digest, 16 Nov – 22 Nov 2026: 1,045 visitors (+25.1%)</title>");
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toMatch(/@media \(prefers-color-scheme: dark\) \{[^}]*\.wa-page \{ background:#0e1217 !important; \}/);
    // Light colours are inline: a client that drops <style> still shows them.
    expect(html).toContain('class="wa-card" style="max-width:600px;background:#ffffff;');
    // (The note's escaped "src=x" is text, not an attribute.)
    expect(html).not.toMatch(/<(script|img|link|iframe|object)\b|\ssrc="|url\(|@import/i);
    expect(html).not.toContain("white-space:nowrap");
  });

  it("has the figures in data tables, each change beside the number it is compared with", () => {
    expect(html).toContain("<h1");
    expect(html).toContain(">16 Nov – 22 Nov 2026</h1>");
    expect(html).toContain("Monday to Sunday in Berlin time, against the week before (9 Nov – 15 Nov 2026).");
    expect(html.match(/<caption[^>]*>([^<]+)<\/caption>/g)!.map((c) => c.replace(/<[^>]+>/g, ""))).toEqual([
      "The week",
      "Score and rank",
      "From mention to conversion, per platform",
    ]);
    // This week's figure with its change under it, then the figure it is compared with.
    const visitors = html.slice(html.indexOf(">Visitors</th>"), html.indexOf("</tr>", html.indexOf(">Visitors</th>")));
    expect(visitors.replace(/ style="[^"]*"/g, "")).toBe(
      '>Visitors</th><td align="right" class="wa-text wa-rule">1,045<br><span class="wa-up">▲\u00a0+25.1%</span></td><td align="right" class="wa-text wa-rule">835</td>',
    );
    expect(html).toContain('class="wa-down" style="color:#b42318;font-size:12px;">▼\u00a0−20.0%</span>');
    expect(html).toContain(">no change</span>");
    // The platforms' mentions with their change under the count, as in the week's table.
    expect(html).toContain('>12<br><span class="wa-up" style="color:#17703a;font-size:12px;">new</span></td>');
    expect(html).toContain(">−3.5 points on the week</span>");
    expect(html).toContain(">2\u00a0of\u00a08</td>");
    expect(html).toContain(">was 3</span>");
    expect(html).toContain('<th scope="row"');
    expect(html).toContain('<th scope="col"');
  });

  it("mutes a change chance alone makes and says so, in the HTML and the text alike", () => {
    const quiet: DigestFigures = {
      ...figures,
      totals: { ok: true, value: { visitors: { now: 93, before: 89 }, aiVisitors: { now: 200, before: 250 }, conversions: { now: 2, before: 5 } } },
    };
    const page = digestHtml(quiet, "Weekly digest");
    expect(page).toContain('>93<br><span class="wa-muted" style="color:#52606d;font-size:12px;">▲\u00a0+4.5%, within normal variation</span>');
    // 200 against 250 is beyond chance (p = 0.02): it keeps its colour.
    expect(page).toContain('class="wa-down" style="color:#b42318;font-size:12px;">▼\u00a0−20.0%</span>');
    expect(page).toContain("A grey change is within normal variation");
    const text = digestEvent(quiet, Date.parse("2026-11-23T09:00:00Z")).data.message;
    expect(text).toContain("93 visitors (+4.5%, within normal variation), 200 from AI platforms (−20.0%), 2 conversions (−60.0%, within normal variation)");
    // The subject stays short: its figure's change, unmarked.
    expect(digestSubject(quiet)).toBe("Weekly digest, 16 Nov – 22 Nov 2026: 93 visitors (+4.5%)");
  });

  it("escapes what people and the Data API wrote, and links into the dashboard", () => {
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; Webinar");
    expect(html).toContain("<strong>18 Nov – 19 Nov 2026</strong>");
    expect(html).toContain("asked “is &lt;b&gt;it&lt;/b&gt; good?”");
    expect(html).toContain("“&quot;meh&quot; &amp; slow”");
    expect(html).toContain('href="https://analytics.example.com/?from=2026-11-16&amp;to=2026-11-22&amp;tz=Europe%2FBerlin"');
  });

  it("says a part the upstream could not give, and leaves out what is not kept", () => {
    const partial = digestHtml(
      {
        ...figures,
        totals: { ok: false, unavailable: "the Data API answered 429" },
        platforms: { ok: false, unavailable: "no <access>" },
        score: null,
        rank: null,
        notes: [],
        url: undefined,
      },
      "Weekly digest",
    );
    expect(partial).toContain("The week&#39;s visitors could not be read this time (the Data API answered 429).");
    expect(partial).toContain("The AI platforms could not be read this time (no &lt;access&gt;).");
    expect(partial).not.toContain("Score and rank");
    expect(partial).not.toContain("Notes of the week");
    expect(partial).not.toContain("href=");
  });
});
