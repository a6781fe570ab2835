// The bounds of a kept day: a day's summary of the visitors by country keeps at most 500 cities by
// name (those with the most visitors) and sums the rest as "(other cities)" in their own country, so
// every country's figures stay exact; a day's summary of the questions keeps at most 500 questions
// by name (the most mentioned) and sums the rest per platform, which the answer gives as a count of
// mentions, never as a question. Folded through the summarisers themselves, row by row.
import { describe, expect, it } from "vitest";
import type { Mention, Visitor } from "@/lib/data-api/schemas";
import { COUNTRY_DAYS, MAX_CITIES_PER_DAY, OTHER_CITIES } from "./countries";
import { MAX_QUESTIONS_PER_DAY, QUERY_DAYS } from "./queries";

describe("a kept day's bounds", () => {
  it("cities: 500 named over all countries, the rest summed in their country; each country's totals unchanged", () => {
    const day = COUNTRY_DAYS.empty();
    let n = 0;
    // 400 cities in the US (5 visitors each, one converting), 300 in Germany (1 visitor each).
    for (let c = 0; c < 400; c++)
      for (let i = 0; i < 5; i++)
        COUNTRY_DAYS.add(day, { id: `v${n++}`, country: "US", city: `US city ${c}`, source: "organic", converted: i === 0 } as Visitor);
    for (let c = 0; c < 300; c++) COUNTRY_DAYS.add(day, { id: `v${n++}`, country: "DE", city: `DE city ${c}`, source: "chatgpt", converted: false } as Visitor);
    const summary = COUNTRY_DAYS.finish(day);
    const us = summary.find((r) => r.country === "US")!;
    const de = summary.find((r) => r.country === "DE")!;
    const named = summary.flatMap((r) => r.cities.filter(([name]) => name !== OTHER_CITIES));
    expect(named).toHaveLength(MAX_CITIES_PER_DAY);
    // The busiest first: every US city, then the first hundred German ones by name.
    expect(us.cities.filter(([name]) => name !== OTHER_CITIES)).toHaveLength(400);
    expect(de.cities.find(([name]) => name === OTHER_CITIES)).toEqual([OTHER_CITIES, 200, 0]);
    expect(de.cities).toHaveLength(101);
    for (const r of [us, de]) {
      expect(r.cities.reduce((v, [, visitors]) => v + visitors, 0)).toBe(r.visitors);
      expect(r.cities.reduce((v, [, , conversions]) => v + conversions, 0)).toBe(r.conversions);
    }
    expect([us.visitors, us.conversions, de.visitors, de.ai]).toEqual([2000, 400, 300, 300]);
  });

  it("a day within the bound is kept whole", () => {
    const day = COUNTRY_DAYS.empty();
    for (let c = 0; c < MAX_CITIES_PER_DAY; c++)
      COUNTRY_DAYS.add(day, { id: `v${c}`, country: "FR", city: `FR ${c}`, source: "direct", converted: false } as Visitor);
    expect(COUNTRY_DAYS.finish(day)[0]!.cities.some(([name]) => name === OTHER_CITIES)).toBe(false);
  });

  it("questions: 500 named, the rest summed per platform under a key no question has", () => {
    const day = QUERY_DAYS.empty();
    let n = 0;
    const mention = (query: string, platform: string, position: number) =>
      ({ id: `m${n++}`, query, platform, position, sentiment: "positive", created_at: "2026-11-20T10:00:00Z" }) as Mention;
    // 600 questions: question i is mentioned (i % 3) + 1 times, on chatgpt, claude, chatgpt in turn;
    // the 400 mentioned twice or three times are named, and 100 of those mentioned once (by key).
    for (let i = 0; i < 600; i++) for (let k = 0; k <= i % 3; k++) QUERY_DAYS.add(day, mention(`Question ${i}?`, k % 2 ? "claude" : "chatgpt", k + 1));
    const summary = QUERY_DAYS.finish(day);
    const keys = new Set(summary.map((r) => r.key));
    const other = summary.filter((r) => r.key === "");
    expect(keys.size - (other.length > 0 ? 1 : 0)).toBe(MAX_QUESTIONS_PER_DAY);
    expect(other.map((r) => r.platform)).toEqual(["chatgpt"]);
    expect(summary.reduce((m, r) => m + r.mentions, 0)).toBe(n);
    expect(summary.filter((r) => r.key !== "" && r.platform === "chatgpt").length).toBe(MAX_QUESTIONS_PER_DAY);
    expect(other.reduce((m, r) => m + r.mentions, 0)).toBe(100);
  });
});
