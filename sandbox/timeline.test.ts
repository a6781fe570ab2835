// Every generated visitor's timeline (not a sample) agrees with its row; the HTTP-level checks are in
// consistency.test.ts. Also checks the id scheme round-trips for every row.
import { describe, expect, it } from "vitest";
import { AI_SOURCES, SOURCES } from "./contract";
import { visitorTimeline } from "./timeline";
import { generateVisitors, visitorId, visitorRow } from "./visitors";

const NOW = Date.parse("2026-11-20T12:00:00Z");

describe("visitorTimeline over every visitor of a 20,000-visitor workspace", () => {
  const cols = generateVisitors(42, 20_000, NOW);

  it("first/last events at first_seen/last_seen, events ordered, counts match the row", () => {
    const problems: string[] = [];
    let multiSession = 0;
    for (let row = 0; row < cols.count; row++) {
      const t = visitorTimeline(cols, row);
      const ev = t.data;
      const count = (type: string) => ev.filter((e) => e.type === type).length;
      const times = ev.map((e) => Date.parse(e.occurred_at));
      const ai = (AI_SOURCES as readonly string[]).includes(SOURCES[cols.source[row]!]!);
      const checks: Array<[string, boolean]> = [
        ["first", times[0] === cols.firstSeen[row]],
        ["last", times.at(-1) === cols.lastSeen[row]],
        ["ordered", times.every((x, i) => i === 0 || x >= times[i - 1]!)],
        ["page_views", count("page_view") === cols.pages[row]],
        ["conversion", count("conversion") === cols.converted[row]],
        ["form_submit", count("form_submit") === cols.lead[row]],
        ["ai_referral", count("ai_referral") === (ai ? 1 : 0)],
        ["return_visits", count("return_visit") === cols.sessions[row]! - 1],
        ["durations", ev.every((e) => e.type !== "page_view" || (Number.isInteger(e.duration_seconds) && e.duration_seconds! >= 0))],
      ];
      for (const [name, ok] of checks) if (!ok) problems.push(`${t.visitor_id}: ${name}`);
      if (cols.sessions[row]! > 1) multiSession++;
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(multiSession).toBeGreaterThan(cols.count * 0.1);
  });

  it("rows: converted implies lead, lead implies 2+ pages and an identified visitor; sessions <= pages", () => {
    for (let row = 0; row < cols.count; row++) {
      if (cols.converted[row]) expect(cols.lead[row]).toBe(1);
      if (cols.lead[row]) {
        expect(cols.pages[row]).toBeGreaterThanOrEqual(2);
        expect(cols.city[row]).not.toBe(255);
      }
      expect(cols.sessions[row]).toBeLessThanOrEqual(cols.pages[row]!);
      expect(cols.firstSeen[row]).toBeLessThanOrEqual(cols.lastSeen[row]!);
      if (row > 0) expect(cols.lastSeen[row]).toBeLessThanOrEqual(cols.lastSeen[row - 1]!);
    }
  });

  it("ids are unique, well-formed and map back to their row; near misses do not", () => {
    const ids = new Set<string>();
    for (let row = 0; row < cols.count; row++) {
      const id = visitorId(cols, row);
      expect(id).toMatch(/^vis_[0-9a-z]{9}$/);
      expect(visitorRow(cols, id)).toBe(row);
      ids.add(id);
    }
    expect(ids.size).toBe(cols.count);
    const id = visitorId(cols, 1234);
    const tweaked = id.slice(0, -1) + (id.endsWith("0") ? "1" : "0");
    expect(visitorRow(cols, tweaked)).toBe(-1);
    // The same row in a workspace of another size or seed has another id.
    expect(visitorRow(generateVisitors(42, 19_999, NOW), id)).toBe(-1);
    expect(visitorRow(generateVisitors(43, 20_000, NOW), id)).toBe(-1);
  });
});
