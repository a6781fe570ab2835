// /sandbox/history over real HTTP: the past days' score and ranking of the key's workspace in one
// call, each exactly what /v1/intelligence/* answered on that day with the clock moved there; bad
// input and keys refused like the API's.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "./keys";
import { api, fileSandbox, type ErrorJson } from "./test-client";

const DAY = 86_400_000;
const sb = fileSandbox({ visitors: 200 });

type Day = { score: { score: number; updated_at: string }; ranking: { updated_at: string; data: unknown[] } };

/** GET /sandbox/history with `key` (none: no Authorization header). */
async function history<T>(query: string, key: string | null): Promise<{ status: number; body: T }> {
  const res = await fetch(`${sb().url}/sandbox/history${query}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: (await res.json()) as T };
}

const clock = (body: object) => fetch(`${sb().url}/sandbox/clock`, { method: "POST", body: JSON.stringify(body) });

describe("GET /sandbox/history", () => {
  it("answers the days before the clock's day, oldest first, as the API answered them on each day", async () => {
    const res = await history<{ data: Day[] }>("?days=5", DEMO_KEYS.pro);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
    const today = Date.parse((await api<{ updated_at: string }>(sb(), "/intelligence/score", DEMO_KEYS.pro)).body.updated_at);
    expect(res.body.data.map((d) => d.score.updated_at)).toEqual([5, 4, 3, 2, 1].map((n) => new Date(today - n * DAY).toISOString()));
    // The third day (3 days back) read live with the clock moved there.
    await clock({ advance_ms: -3 * DAY });
    try {
      const live = (await api<Day["score"]>(sb(), "/intelligence/score", DEMO_KEYS.pro)).body;
      const liveRanking = (await api<Day["ranking"]>(sb(), "/intelligence/ranking", DEMO_KEYS.pro)).body;
      expect(res.body.data[2]!.score).toEqual(live);
      expect(res.body.data[2]!.ranking).toEqual(liveRanking);
    } finally {
      await clock({ reset: true });
    }
  });

  it("answers the empty workspace's zeros and refuses a missing key, a limited key and bad days", async () => {
    const empty = await history<{ data: Day[] }>("?days=2", DEMO_KEYS.empty);
    expect(empty.body.data.map((d) => [d.score.score, d.ranking.data.length])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect((await history("", null)).status).toBe(401);
    expect((await history("", DEMO_KEYS.limited)).status).toBe(403);
    for (const days of ["0", "367", "1.5", "x", "-1"]) {
      const bad = await history<ErrorJson>(`?days=${days}`, DEMO_KEYS.pro);
      expect([bad.status, bad.body.error.param]).toEqual([400, "days"]);
    }
    expect((await history<{ data: Day[] }>("", DEMO_KEYS.pro)).body.data).toHaveLength(90);
  });
});
