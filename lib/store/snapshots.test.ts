// History on both databases: a snapshot is recorded once per upstream `updated_at`, read back by
// range oldest first, never across workspaces; the first one sets where history begins; daily
// figures are kept per kind, zone and date, the first reading winning unless replaced.
import { describe, expect, it } from "vitest";
import type { ScoreSnapshot } from "./snapshots";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 6);

const score = (at: number, value: number): Omit<ScoreSnapshot, "recordedAt"> => ({
  at,
  score: value,
  direction: value >= 70 ? "up" : "down",
  change: 2,
  breakdown: { visibility: value - 1, sentiment: value + 1, authority: value - 2, coverage: value + 2 },
});

async function twoWorkspaces(store: Store) {
  const a = await store.workspaces.workspaceForKey("svc_sk_live_history_a_0123456789");
  const b = await store.workspaces.workspaceForKey("svc_sk_live_history_b_0123456789");
  return { a: a.id, b: b.id };
}

describe.each(STORE_KINDS)("snapshots (%s)", (kind) => {
  it("a score is recorded once per `at`, read back by range oldest first, and never from another workspace", async () => {
    let now = T0 + 10 * DAY;
    const store = await stores.open(kind, { now: () => now });
    const { a, b } = await twoWorkspaces(store);
    expect(await store.snapshots.recordScore(a, score(T0 + 2 * DAY, 71))).toBe(true);
    expect(await store.snapshots.recordScore(a, score(T0, 69))).toBe(true);
    now += 1000;
    // The same `updated_at` read again (by another instance, or later) records nothing.
    expect(await store.snapshots.recordScore(a, score(T0, 10))).toBe(false);
    expect(await store.snapshots.recordScore(b, score(T0 + DAY, 50))).toBe(true);

    const history = await store.snapshots.scoreHistory(a, { from: T0, to: T0 + 2 * DAY });
    expect(history).toEqual([
      { at: T0, recordedAt: T0 + 10 * DAY, score: 69, direction: "down", change: 2, breakdown: { visibility: 68, sentiment: 70, authority: 67, coverage: 71 } },
      {
        at: T0 + 2 * DAY,
        recordedAt: T0 + 10 * DAY,
        score: 71,
        direction: "up",
        change: 2,
        breakdown: { visibility: 70, sentiment: 72, authority: 69, coverage: 73 },
      },
    ]);
    // Inclusive bounds; a range with nothing is empty (gaps stay gaps).
    expect(await store.snapshots.scoreHistory(a, { from: T0 + 1, to: T0 + 2 * DAY - 1 })).toEqual([]);
    expect((await store.snapshots.scoreHistory(b, { from: 0, to: T0 + 100 * DAY })).map((s) => s.score)).toEqual([50]);
    expect(await store.snapshots.latestScoreAt(a)).toBe(T0 + 2 * DAY);
    expect(await store.snapshots.latestScoreAt((await store.workspaces.workspaceForKey("svc_sk_live_history_c_0123456789")).id)).toBeNull();
  });

  it("history begins at the earliest snapshot of either kind", async () => {
    const store = await stores.open(kind);
    const { a, b } = await twoWorkspaces(store);
    await store.snapshots.recordScore(a, score(T0 + 5 * DAY, 70));
    expect((await store.workspaces.workspace(a))!.historySince).toBe(T0 + 5 * DAY);
    await store.snapshots.recordRanking(a, { at: T0 + 3 * DAY, entries: [] });
    await store.snapshots.recordScore(a, score(T0 + 9 * DAY, 70));
    expect((await store.workspaces.workspace(a))!.historySince).toBe(T0 + 3 * DAY);
    expect((await store.workspaces.workspace(b))!.historySince).toBeNull();
  });

  it("unreadable values are kept as null; odd numbers never become values", async () => {
    const store = await stores.open(kind);
    const { a } = await twoWorkspaces(store);
    await store.snapshots.recordScore(a, {
      at: T0,
      score: Number.NaN,
      direction: null,
      change: null,
      breakdown: { visibility: Infinity, sentiment: null, authority: 3.5, coverage: null },
    });
    expect((await store.snapshots.scoreHistory(a, { from: T0, to: T0 }))[0]).toMatchObject({
      score: null,
      direction: null,
      breakdown: { visibility: null, sentiment: null, authority: 3.5, coverage: null },
    });
    await expect(store.snapshots.recordScore(a, score(-1, 1))).rejects.toMatchObject({ param: "at" });
    await expect(store.snapshots.scoreHistory(a, { from: 1.5, to: 2 })).rejects.toMatchObject({ param: "from" });
  });

  it("rankings are recorded once per `at` with their entries as read", async () => {
    const store = await stores.open(kind);
    const { a, b } = await twoWorkspaces(store);
    const entries = [
      { rank: 1, name: "Rival & Co <b>", score: 81.5, change: -1, is_workspace: false },
      { rank: 2, name: "Us", score: 77, change: 3, is_workspace: true },
      { rank: null, name: "Unranked", score: null, change: null, is_workspace: null },
    ];
    expect(await store.snapshots.recordRanking(a, { at: T0, entries })).toBe(true);
    expect(await store.snapshots.recordRanking(a, { at: T0, entries: [] })).toBe(false);
    expect(await store.snapshots.rankingHistory(a, { from: T0, to: T0 })).toEqual([{ at: T0, recordedAt: expect.any(Number), entries }]);
    expect(await store.snapshots.rankingHistory(b, { from: 0, to: T0 * 2 })).toEqual([]);
    expect(await store.snapshots.latestRankingAt(a)).toBe(T0);
  });

  it("daily figures: one per kind, zone and date; the first reading kept unless replaced; read by date range", async () => {
    let now = T0;
    const store = await stores.open(kind, { now: () => now });
    const { a, b } = await twoWorkspaces(store);
    const put = (date: string, data: unknown, tz = "Europe/Berlin", replace = false) =>
      store.snapshots.putDailyFigures(a, { kind: "sources", date, tz, data }, { replace });
    expect(await put("2026-01-02", { visitors: 12 })).toBe(true);
    expect(await put("2026-01-01", { visitors: 10 })).toBe(true);
    expect(await put("2026-01-02", { visitors: 0 })).toBe(false);
    expect(await put("2026-01-02", { visitors: 12 }, "UTC")).toBe(true);
    now += DAY;
    expect(await put("2026-01-01", { visitors: 11 }, "Europe/Berlin", true)).toBe(true);
    await store.snapshots.putDailyFigures(b, { kind: "sources", date: "2026-01-01", tz: "Europe/Berlin", data: { visitors: 999 } });
    await store.snapshots.putDailyFigures(a, { kind: "platforms", date: "2026-01-01", tz: "Europe/Berlin", data: { mentions: 4 } });

    expect(await store.snapshots.dailyFigures(a, { kind: "sources", tz: "Europe/Berlin", from: "2026-01-01", to: "2026-01-31" })).toEqual([
      { date: "2026-01-01", tz: "Europe/Berlin", kind: "sources", data: { visitors: 11 }, recordedAt: T0 + DAY },
      { date: "2026-01-02", tz: "Europe/Berlin", kind: "sources", data: { visitors: 12 }, recordedAt: T0 },
    ]);
    expect((await store.snapshots.dailyFigures(a, { kind: "sources", tz: "UTC", from: "2026-01-02", to: "2026-01-02" })).map((d) => d.data)).toEqual([
      { visitors: 12 },
    ]);
    expect(await store.snapshots.dailyFigures(a, { kind: "sources", tz: "Europe/Berlin", from: "2026-01-03", to: "2026-01-31" })).toEqual([]);
  });

  it("daily figures refuse what they cannot keep, naming it", async () => {
    const store = await stores.open(kind);
    const { a } = await twoWorkspaces(store);
    const good = { kind: "sources", date: "2026-01-01", tz: "UTC", data: 1 };
    await expect(store.snapshots.putDailyFigures(a, { ...good, date: "2026-02-30" })).rejects.toMatchObject({ param: "date" });
    await expect(store.snapshots.putDailyFigures(a, { ...good, tz: "Nowhere/City" })).rejects.toMatchObject({ param: "tz" });
    await expect(store.snapshots.putDailyFigures(a, { ...good, kind: "Sources; drop" })).rejects.toMatchObject({ param: "kind" });
    await expect(store.snapshots.dailyFigures(a, { kind: "sources", tz: "UTC", from: "2026-1-1", to: "2026-01-02" })).rejects.toMatchObject({ param: "from" });
  });

  it("a year of daily snapshots reads back whole, in order", async () => {
    const store = await stores.open(kind);
    const { a } = await twoWorkspaces(store);
    for (let d = 0; d < 365; d++) await store.snapshots.recordScore(a, score(T0 + d * DAY, 50 + (d % 40)));
    const year = await store.snapshots.scoreHistory(a, { from: T0, to: T0 + 364 * DAY });
    expect(year).toHaveLength(365);
    expect(year.every((s, i) => s.at === T0 + i * DAY && s.score === 50 + (i % 40))).toBe(true);
  });
});
