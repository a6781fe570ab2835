// The activity on both databases: records listed newest first with the key hint that made them, also
// within one millisecond; each workspace's own only; at most 1,000 kept per workspace, the oldest
// leaving as new ones come in (in the table, not only in the list); 90 days kept; a long subject cut.
import { describe, expect, it } from "vitest";
import { ACTIVITY_KEEP_DAYS, ACTIVITY_MAX } from "./activity";
import type { WorkspaceId } from "./schema";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 12);

async function twoWorkspaces(store: Store): Promise<[WorkspaceId, WorkspaceId]> {
  return [
    (await store.workspaces.workspaceForKey("svc_sk_test_activity_A_0123456789")).id,
    (await store.workspaces.workspaceForKey("svc_sk_test_activity_B_0123456789")).id,
  ];
}

describe.each(STORE_KINDS)("activity (%s)", (kind) => {
  it("lists a workspace's records newest first with the key hint that made them, never another workspace's", async () => {
    let t = T0;
    const store = await stores.open(kind, { now: () => t });
    const [a, b] = await twoWorkspaces(store);
    await store.activity.record(a, { keyHint: "svc_sk_test_…6789", action: "destination.added", subject: "Ops" });
    t += 60_000;
    await store.activity.record(b, { keyHint: "svc_sk_test_…other", action: "watching.started", subject: "" });
    t += 60_000;
    await store.activity.record(a, { keyHint: "svc_sk_live_…9f2c", action: "rule.added", subject: "The score is below 40 → Ops" });
    expect(await store.activity.list(a)).toEqual([
      { at: T0 + 120_000, keyHint: "svc_sk_live_…9f2c", action: "rule.added", subject: "The score is below 40 → Ops" },
      { at: T0, keyHint: "svc_sk_test_…6789", action: "destination.added", subject: "Ops" },
    ]);
    expect((await store.activity.list(b)).map((r) => r.action)).toEqual(["watching.started"]);
  });

  it("keeps the order of records made within one millisecond", async () => {
    const store = await stores.open(kind, { now: () => T0 });
    const [a] = await twoWorkspaces(store);
    for (const subject of ["first", "second", "third"]) await store.activity.record(a, { keyHint: "h", action: "destination.added", subject });
    const listed = await store.activity.list(a);
    expect(listed.map((r) => r.subject)).toEqual(["third", "second", "first"]);
    // Each strictly after the one before, never before the clock.
    expect(listed.map((r) => r.at)).toEqual([T0 + 2, T0 + 1, T0]);
  });

  it(`keeps at most ${ACTIVITY_MAX} per workspace: the oldest leave the table as new ones come in; another workspace keeps its own`, async () => {
    let t = T0;
    const store = await stores.open(kind, { now: () => t });
    const [a, b] = await twoWorkspaces(store);
    await store.activity.record(b, { keyHint: "h", action: "watching.started", subject: "b's" });
    for (let i = 0; i < ACTIVITY_MAX + 5; i++) {
      t += 1_000;
      await store.activity.record(a, { keyHint: "h", action: "rule.added", subject: String(i) });
    }
    const listed = await store.activity.list(a);
    expect(listed).toHaveLength(ACTIVITY_MAX);
    expect(listed[0]!.subject).toBe(String(ACTIVITY_MAX + 4));
    expect(listed.at(-1)!.subject).toBe("5");
    expect((await store.activity.list(b)).map((r) => r.subject)).toEqual(["b's"]);
    // What the table holds, not only what the list shows: forgetting everything deletes 1,000 + 1.
    expect(await store.activity.prune(t + 1)).toBe(ACTIVITY_MAX + 1);
  });

  it(`keeps ${ACTIVITY_KEEP_DAYS} days: an older record is not listed, and leaves the table when its workspace records again`, async () => {
    let t = T0;
    const store = await stores.open(kind, { now: () => t });
    const [a] = await twoWorkspaces(store);
    await store.activity.record(a, { keyHint: "h", action: "watching.started", subject: "old" });
    t = T0 + 30 * DAY;
    await store.activity.record(a, { keyHint: "h", action: "watching.stopped", subject: "recent" });
    t = T0 + ACTIVITY_KEEP_DAYS * DAY;
    expect((await store.activity.list(a)).map((r) => r.subject)).toEqual(["recent", "old"]);
    t += 1;
    expect((await store.activity.list(a)).map((r) => r.subject)).toEqual(["recent"]);
    await store.activity.record(a, { keyHint: "h", action: "watching.started", subject: "new" });
    expect(await store.activity.prune(t + 1)).toBe(2);
  });

  it("cuts a subject longer than 300 characters, by characters, not bytes", async () => {
    const store = await stores.open(kind, { now: () => T0 });
    const [a] = await twoWorkspaces(store);
    const made = await store.activity.record(a, { keyHint: "h", action: "destination.added", subject: "🚀".repeat(400) });
    expect([...made.subject]).toHaveLength(300);
    expect(made.subject.endsWith("🚀…")).toBe(true);
    expect((await store.activity.list(a))[0]!.subject).toBe(made.subject);
  });
});
