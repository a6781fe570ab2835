// recordScoreAndRanking on both databases: a read score and ranking become one snapshot each per
// `updated_at`, fields the upstream did not send readably are kept as null, and a read without a
// readable `updated_at` records nothing.
import { describe, expect, it } from "vitest";
import type { Ranking, Score } from "@/lib/data-api/schemas";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { recordScoreAndRanking } from "./record";

const stores = storesForFile();
const AT = "2026-03-02T06:00:00Z";

const score: Score = {
  score: 72,
  trend: { direction: "up", change: 3 },
  breakdown: { visibility: 70, sentiment: 80, authority: 60, coverage: 75 },
  updated_at: AT,
};
const ranking: Ranking = {
  updated_at: AT,
  data: [
    { rank: 1, name: "Rival", score: 81.5, change: -1, is_workspace: false },
    { rank: 2, name: "Us", score: 72, change: 3, is_workspace: true },
  ],
};

describe.each(STORE_KINDS)("recordScoreAndRanking (%s)", (kind) => {
  it("keeps each `updated_at` once, for its workspace only", async () => {
    const store = await stores.open(kind);
    const a = (await store.workspaces.workspaceForKey("svc_sk_live_record_a_0123456789")).id;
    const b = (await store.workspaces.workspaceForKey("svc_sk_live_record_b_0123456789")).id;
    expect(await recordScoreAndRanking(store, a, score, ranking)).toEqual({ score: true, ranking: true });
    expect(await recordScoreAndRanking(store, a, score, ranking)).toEqual({ score: false, ranking: false });
    const at = Date.parse(AT);
    const all = { from: 0, to: at + 1 };
    expect(await store.snapshots.scoreHistory(a, all)).toMatchObject([
      { at, score: 72, direction: "up", change: 3, breakdown: { visibility: 70, sentiment: 80, authority: 60, coverage: 75 } },
    ]);
    expect((await store.snapshots.rankingHistory(a, all))[0]!.entries).toEqual([
      { rank: 1, name: "Rival", score: 81.5, change: -1, is_workspace: false },
      { rank: 2, name: "Us", score: 72, change: 3, is_workspace: true },
    ]);
    expect(await store.snapshots.scoreHistory(b, all)).toEqual([]);
  });

  it("records either one alone, keeps unread fields as null, and skips a read without `updated_at`", async () => {
    const store = await stores.open(kind);
    const a = (await store.workspaces.workspaceForKey("svc_sk_live_record_c_0123456789")).id;
    expect(await recordScoreAndRanking(store, a, { score: 50, updated_at: AT }, undefined)).toEqual({ score: true, ranking: false });
    expect(await recordScoreAndRanking(store, a, { score: 51 }, { data: [{ name: "X" }] })).toEqual({ score: false, ranking: false });
    expect(await recordScoreAndRanking(store, a, null, { updated_at: AT, data: [{ name: "X" }] })).toEqual({ score: false, ranking: true });
    const all = { from: 0, to: Date.parse(AT) };
    expect(await store.snapshots.scoreHistory(a, all)).toMatchObject([
      { score: 50, direction: null, change: null, breakdown: { visibility: null, sentiment: null, authority: null, coverage: null } },
    ]);
    expect((await store.snapshots.rankingHistory(a, all))[0]!.entries).toEqual([{ rank: null, name: "X", score: null, change: null, is_workspace: null }]);
  });
});
