// The sandbox's clock over real HTTP: it starts at `now` and runs with the wall clock, /sandbox/clock
// sets it, moves it forward and back and resets it, bad bodies are refused naming the field, and it
// moves the score and ranking only (rows and rate-limit windows stay). The wall clock is injected,
// so "time passes" is a variable moved by the test.
import { describe, expect, it } from "vitest";
import type { ClockJson } from "./clock";
import { DEMO_KEYS } from "./keys";
import { api, fileSandbox, TEST_NOW, type ErrorJson } from "./test-client";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START_WALL = Date.parse("2031-05-05T08:00:00Z"); // the wall clock, unrelated to TEST_NOW
let wall = START_WALL;
const sb = fileSandbox({ visitors: 500, clock: () => wall });

type Score = { score: number; breakdown: Record<string, number>; updated_at: string };
type Ranking = { updated_at: string; data: Array<{ name: string; score: number; is_workspace: boolean }> };

async function clock(body?: unknown, raw?: string): Promise<{ status: number; body: ClockJson & ErrorJson }> {
  const init: RequestInit = body === undefined && raw === undefined ? {} : { method: "POST", body: raw ?? JSON.stringify(body) };
  const res = await fetch(`${sb().url}/sandbox/clock`, init);
  return { status: res.status, body: (await res.json()) as ClockJson & ErrorJson };
}

/** The clock back where it started, with no time passed (each test starts from there). */
async function restart() {
  wall = START_WALL;
  expect((await clock({ reset: true })).status).toBe(200);
}

const iso = (ms: number) => new Date(ms).toISOString();
const NOW_MS = Date.parse(TEST_NOW);

describe("the sandbox clock", () => {
  it("starts at now and runs with the wall clock; the score's updated_at is the start of its day", async () => {
    await restart();
    expect((await clock()).body).toEqual({
      now: iso(NOW_MS),
      score_updated_at: "2026-11-20T00:00:00.000Z",
      next_update_at: "2026-11-21T00:00:00.000Z",
      rows_dated_at: iso(NOW_MS),
    });
    wall += 5 * HOUR;
    expect((await clock()).body.now).toBe(iso(NOW_MS + 5 * HOUR));
    expect((await api<Score>(sb(), "/intelligence/score")).body.updated_at).toBe("2026-11-20T00:00:00.000Z");
    wall += 7 * HOUR; // midnight: a new day, a new score
    expect((await api<Score>(sb(), "/intelligence/score")).body.updated_at).toBe("2026-11-21T00:00:00.000Z");
  });

  it("is set to an instant, moved forward and back, keeps running from there, and resets", async () => {
    await restart();
    const set = await clock({ now: "2027-03-01T06:30:00+02:00" });
    expect(set.status).toBe(200);
    expect(set.body.now).toBe("2027-03-01T04:30:00.000Z");
    expect(set.body.score_updated_at).toBe("2027-03-01T00:00:00.000Z");
    expect(set.body.rows_dated_at).toBe(iso(NOW_MS));
    expect((await clock({ now: "2027-03-05" })).body.now).toBe("2027-03-05T00:00:00.000Z");

    expect((await clock({ advance_ms: 36 * HOUR })).body.now).toBe("2027-03-06T12:00:00.000Z");
    expect((await clock({ advance_ms: -3 * DAY })).body.now).toBe("2027-03-03T12:00:00.000Z");
    wall += 90 * 60_000;
    expect((await clock()).body.now).toBe("2027-03-03T13:30:00.000Z");

    const reset = await clock({ reset: true });
    expect(reset.body.now).toBe(iso(NOW_MS + 90 * 60_000)); // where it would be, never moved
  });

  it("within a day the score and ranking are the same; the next day they are new; back again, the same as before", async () => {
    await restart();
    const read = async () => ({ score: await api<Score>(sb(), "/intelligence/score"), ranking: await api<Ranking>(sb(), "/intelligence/ranking") });
    await clock({ now: "2026-10-07T00:00:00Z" });
    const first = await read();
    expect(first.score.body.updated_at).toBe("2026-10-07T00:00:00.000Z");
    expect(first.ranking.body.updated_at).toBe("2026-10-07T00:00:00.000Z");
    await clock({ advance_ms: DAY - 1 });
    const last = await read();
    expect(last.score.text).toBe(first.score.text);
    expect(last.ranking.text).toBe(first.ranking.text);

    await clock({ advance_ms: 1 });
    const next = await read();
    expect(next.score.body.updated_at).toBe("2026-10-08T00:00:00.000Z");
    expect(next.ranking.body.updated_at).toBe("2026-10-08T00:00:00.000Z");
    // A new day is recomputed: over a week, the score or someone's score changes.
    const texts = new Set([first.ranking.text.replace(/"updated_at":"[^"]*"/, "")]);
    for (let d = 0; d < 7; d++) {
      await clock({ advance_ms: DAY });
      texts.add((await read()).ranking.text.replace(/"updated_at":"[^"]*"/, ""));
    }
    expect(texts.size).toBeGreaterThan(1);

    await clock({ now: "2026-10-07T15:00:00Z" });
    const again = await read();
    expect(again.score.text).toBe(first.score.text);
    expect(again.ranking.text).toBe(first.ranking.text);
  });

  it("moves the score and ranking only: rows, overview and rate-limit windows stay", async () => {
    await restart();
    const paths = ["/visitors?limit=5", "/mentions?limit=5", "/analytics/overview?period=7d", "/analytics/funnel"];
    const before = await Promise.all(paths.map((p) => api(sb(), p)));
    const score = await api<Score>(sb(), "/intelligence/score");
    await clock({ advance_ms: 40 * DAY });
    const after = await Promise.all(paths.map((p) => api(sb(), p)));
    after.forEach((res, n) => expect(res.text, paths[n]).toBe(before[n]!.text));
    const moved = await api<Score>(sb(), "/intelligence/score");
    expect(moved.body.updated_at).toBe("2026-12-30T00:00:00.000Z");
    expect(moved.text).not.toBe(score.text);
    // The rate-limit window is the wall clock's minute, and its budget is shared across the move.
    const wallMinuteEnd = String(Math.floor(START_WALL / 60_000) * 60 + 60);
    expect(moved.headers.get("x-ratelimit-reset")).toBe(wallMinuteEnd);
    expect(Number(moved.headers.get("x-ratelimit-remaining"))).toBe(1000 - 2 * paths.length - 2);
  });

  it("the empty workspace keeps a zero score and no ranking, dated by the clock", async () => {
    await restart();
    await clock({ now: "2027-01-15T10:00:00Z" });
    expect((await api(sb(), "/intelligence/score", DEMO_KEYS.empty)).body).toEqual({
      score: 0,
      trend: { direction: "flat", change: 0 },
      breakdown: { visibility: 0, sentiment: 0, authority: 0, coverage: 0 },
      updated_at: "2027-01-15T00:00:00.000Z",
    });
    expect((await api(sb(), "/intelligence/ranking", DEMO_KEYS.empty)).body).toEqual({ updated_at: "2027-01-15T00:00:00.000Z", data: [] });
  });

  it("refuses bad bodies with 400 invalid_parameter naming the field, and leaves the clock alone", async () => {
    await restart();
    await clock({ now: "2027-02-02T02:02:02Z" });
    const cases: Array<[unknown, string, string?]> = [
      [{}, "body"],
      [[], "body"],
      ["2027-01-01", "body"],
      [null, "body"],
      [{ now: "2027-01-01", advance_ms: 5 }, "body"],
      [{ nwo: "2027-01-01" }, "nwo"],
      [{ now: "2027-02-31T00:00:00Z" }, "now"],
      [{ now: "2027-01-01T10:00:00" }, "now"],
      [{ now: "yesterday" }, "now"],
      [{ now: 1_800_000_000_000 }, "now"],
      [{ now: "1969-12-31" }, "now"],
      [{ advance_ms: 1.5 }, "advance_ms"],
      [{ advance_ms: "3600000" }, "advance_ms"],
      [{ advance_ms: 1e300 }, "advance_ms"],
      [{ advance_ms: 7980 * 365 * DAY }, "advance_ms"],
      [{ advance_ms: -60 * 365 * DAY }, "advance_ms"],
      [{ reset: false }, "reset"],
      [undefined, "body", "{not json"],
    ];
    for (const [body, param, raw] of cases) {
      const res = await clock(body, raw);
      expect(res.status, JSON.stringify(body ?? raw)).toBe(400);
      expect(res.body.error.code).toBe("invalid_parameter");
      expect(res.body.error.param, JSON.stringify(body ?? raw)).toBe(param);
      expect(res.body.error.message.length).toBeGreaterThan(10);
      expect(res.body.error.request_id).toMatch(/^req_/);
    }
    expect((await clock()).body.now).toBe("2027-02-02T02:02:02.000Z");
  });

  it("is a sandbox control, not part of the Data API", async () => {
    expect((await fetch(`${sb().url}/sandbox/clock`, { method: "PUT", body: "{}" })).status).toBe(405);
    expect((await api(sb(), "/sandbox/clock")).status).toBe(404);
    expect((await api(sb(), "/clock")).status).toBe(404);
    const post = await api(sb(), "/sandbox/clock", DEMO_KEYS.pro, { method: "POST", body: JSON.stringify({ advance_ms: DAY }) });
    expect(post.status).toBe(405);
  });
});
