// What the store keeps per workspace, on both databases: the list of per-workspace tables matches the
// migrated database's own catalogue (a table with a `workspace_id` missing from the list fails here);
// linking a key that had a workspace of its own moves every table's rows into the session's workspace
// (a snapshot at the same `at` kept once, the later of two readings of a kept day, " (2)" for a taken
// view name, the kept key taken only when this workspace keeps none, history from the earlier start);
// deleting a workspace removes every table's rows of it and nothing of another; and writes racing a
// merge or a delete are either moved, deleted with it, or refused, never lost or left behind.
import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openStoreDatabase, type StoreKind } from "./database";
import { StoreConflictError } from "./errors";
import type { StoreTables, WorkspaceId } from "./schema";
import { createStore, type Store } from "./store";
import { STORE_KINDS, storesForFile, TEST_SECRETS } from "@/testing/stores";
import { DEPLOYMENT_TABLES, KEPT_THROUGH, workspaceTables } from "./workspace-data";

const stores = storesForFile();
const openedHere: Store[] = [];
afterEach(async () => {
  await Promise.allSettled(openedHere.splice(0).map((s) => s.close()));
});

const KEY_A = "svc_sk_live_merge_session_key_0123456789";
const KEY_B = "svc_sk_live_merge_other_key_9876543210ab";
const KEY_C = "svc_sk_live_merge_bystander_00112233445";
const T0 = Date.UTC(2026, 9, 1, 6);
const HOUR = 3_600_000;
/** The kept day every workspace of these tests holds (1 October 2026 in UTC). */
const DAY_START = Date.UTC(2026, 9, 1);

/** A store whose database the test can also read directly (closed after the test). */
async function openWithDb(kind: StoreKind, options: { now?: () => number } = {}): Promise<{ store: Store; db: Kysely<StoreTables> }> {
  const config = await stores.config(kind);
  const database = await openStoreDatabase(config, { max: 6 });
  const store = await createStore(database, { secrets: () => TEST_SECRETS, ...options });
  openedHere.push(store);
  return { store, db: database.db };
}

/** The tables of the migrated database and their columns, from its own catalogue. */
async function catalogue(kind: StoreKind, db: Kysely<StoreTables>): Promise<Map<string, string[]>> {
  const rows =
    kind === "postgres"
      ? (
          await sql<{
            t: string;
            c: string;
          }>`select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema()`.execute(db)
        ).rows
      : (
          await sql<{
            t: string;
            c: string;
          }>`select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' and m.name not like 'sqlite_%'`.execute(
            db,
          )
        ).rows;
  const tables = new Map<string, string[]>();
  for (const { t, c } of rows) tables.set(t, [...(tables.get(t) ?? []), c]);
  return tables;
}

/** How many rows `workspace` has in each per-workspace table, and in each table kept through one. */
async function rowsOf(db: Kysely<StoreTables>, workspace: WorkspaceId): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of workspaceTables) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where workspace_id = ${workspace}`.execute(db);
    counts[table] = Number(rows[0]!.n);
  }
  for (const [table, parent] of Object.entries(KEPT_THROUGH)) {
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(table)} as child join ${sql.table(parent)} as parent on parent.id = child.rule_id where parent.workspace_id = ${workspace}`.execute(
      db,
    );
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

/**
 * Gives `workspace` rows in every table the store keeps for it, through the store's own functions.
 * `tag` makes its rows its own (names, notes); `at` the instants of its snapshots.
 */
async function fill(store: Store, workspace: WorkspaceId, tag: string, options: { ats: number[]; view: string; day?: { data: unknown } }): Promise<void> {
  for (const at of options.ats) {
    await store.snapshots.recordScore(workspace, {
      at,
      score: 60,
      direction: "up",
      change: 1,
      breakdown: { visibility: 1, sentiment: 2, authority: 3, coverage: 4 },
    });
    await store.snapshots.recordRanking(workspace, { at, entries: [{ rank: 1, name: tag, score: 60, change: 0, is_workspace: true }] });
  }
  await store.snapshots.putDailyFigures(workspace, { kind: "sources", date: "2026-10-01", tz: "UTC", data: options.day?.data ?? { from: tag } });
  await store.keptDays.keep(workspace, [{ figure: "vd2", startMs: DAY_START, endMs: DAY_START + 24 * HOUR, data: { from: tag }, checks: { rows: 1 } }]);
  await store.keptDays.noteZone(workspace, "Europe/Berlin");
  await store.annotations.create(workspace, { date: "2026-10-02", text: `note of ${tag}` });
  await store.views.create(workspace, { name: options.view, path: "/visitors", query: { source: "chatgpt" } });
  const share = await store.shares.create(workspace, {
    name: `link of ${tag}`,
    path: "/platforms",
    query: {},
    token: `token-of-${tag}`,
    passwordHash: null,
    expiresAt: null,
  });
  await store.tokens.create(workspace, { name: `token of ${tag}`, token: `wa_token-of-${tag}`, hint: "wa_…" + tag.slice(-4), expiresAt: null });
  const destination = await store.alerts.createDestination(workspace, {
    kind: "webhook",
    name: `hook ${tag}`,
    url: `https://${tag}.example/hook`,
    urlHint: `https://${tag}.example/…hook`,
    secret: "whsec_c2VjcmV0",
  });
  const rule = (await store.alerts.createRule(workspace, { kind: "score_below", threshold: 50, destinationId: destination.id, cooldownMs: HOUR }))!;
  await store.alerts.recordCheck(rule, { basis: `score:${tag}`, at: T0, state: "ok", value: 60, message: "fine" }, null);
  const [delivery] = (await store.alerts.enqueue(workspace, { dedupeKey: `test:${tag}`, type: "test", body: { tag } }, [destination.id]))!;
  const claimed = await store.alerts.claimNext(destination.id, "instance-1", Date.now() + HOUR, Date.now() + 2 * HOUR);
  expect(claimed).toMatchObject({ id: delivery!.id });
  await store.alerts.finishAttempt(claimed!, "instance-1", {
    at: T0,
    status: "delivered",
    responseStatus: 200,
    error: null,
    durationMs: 12,
    nextAttemptAt: null,
  });
  expect(await store.alerts.takeManualSend(workspace, "test")).toEqual({ allowed: true });
  await store.alerts.setDigest(workspace, destination.id, share.id);
  await store.activity.record(workspace, { keyHint: `svc_sk_live_…${tag}`, action: "destination.added", subject: `hook ${tag}` });
}

const tableNames = () => [...workspaceTables, ...Object.keys(KEPT_THROUGH)].sort();

describe.each(STORE_KINDS)("what the store keeps per workspace (%s)", (kind) => {
  it("every table with a workspace_id in the migrated database is in the per-workspace list, and every other table is accounted for", async () => {
    const { db } = await openWithDb(kind);
    const tables = await catalogue(kind, db);
    const withWorkspace = [...tables].filter(([, columns]) => columns.includes("workspace_id")).map(([t]) => t);
    // Both ways: a new table with a workspace_id must join the list (merge and delete walk it).
    expect(withWorkspace.sort()).toEqual([...workspaceTables].sort());
    for (const [table, columns] of tables) {
      if (columns.includes("workspace_id")) continue;
      expect(
        `${table}: ${DEPLOYMENT_TABLES.includes(table) || table in KEPT_THROUGH ? "accounted for" : "neither a workspace's (workspace-data.ts KEPT_THROUGH) nor the deployment's (DEPLOYMENT_TABLES)"}`,
      ).toBe(`${table}: accounted for`);
    }
  });

  it("linking a key that had a workspace of its own moves every table's rows into the session's workspace, and both keys open it", async () => {
    let now = T0;
    const { store, db } = await openWithDb(kind, { now: () => now });
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    const b = (await store.workspaces.workspaceForKey(KEY_B)).id;
    const bystander = (await store.workspaces.workspaceForKey(KEY_C)).id;
    await fill(store, a, "a", { ats: [T0, T0 + HOUR], view: "Weekly AI" });
    await fill(store, b, "b", { ats: [T0 - 24 * HOUR, T0 + HOUR], view: "weekly ai" });
    await fill(store, bystander, "c", { ats: [T0], view: "Weekly AI" });
    const beforeA = await rowsOf(db, a);
    const beforeB = await rowsOf(db, b);
    const beforeC = await rowsOf(db, bystander);
    // The seed reaches every table: a table added to the list needs a row here too.
    for (const table of tableNames()) expect(`${table}: ${beforeB[table]! > 0}`).toBe(`${table}: true`);

    now += HOUR;
    const linked = await store.workspaces.linkKey(a, KEY_B);
    expect(linked).toMatchObject({ keyHint: "svc_sk_live_…10ab", linkedAt: now, merged: true, id: expect.stringMatching(/^lk_[A-Za-z0-9_-]{22}$/) });

    // Nothing of b is left anywhere, and the workspace itself is gone.
    expect(Object.values(await rowsOf(db, b)).every((n) => n === 0)).toBe(true);
    expect(await store.workspaces.workspace(b)).toBeUndefined();
    const afterA = await rowsOf(db, a);
    // Rows that cannot clash add up; the kept-once ones below.
    const keptOnce: Record<string, number> = { score_snapshots: 1, ranking_snapshots: 1, daily_figures: 1, kept_days: 1, kept_zones: 1, alert_digests: 1 };
    for (const table of tableNames()) expect([table, afterA[table]]).toEqual([table, beforeA[table]! + beforeB[table]! - (keptOnce[table] ?? 0)]);
    expect(await rowsOf(db, bystander)).toEqual(beforeC);

    // Both keys open a; b's key is one of its links.
    expect((await store.workspaces.workspaceForKey(KEY_B)).id).toBe(a);
    expect((await store.workspaces.linkedKeys(a)).map((k) => k.keyHint)).toEqual(["svc_sk_live_…6789", "svc_sk_live_…10ab"]);
    // History from the earlier start: b's snapshot a day before a's first.
    expect((await store.workspaces.workspace(a))!.historySince).toBe(T0 - 24 * HOUR);
    expect((await store.snapshots.scoreHistory(a, { from: 0, to: T0 + 10 * HOUR })).map((s) => s.at)).toEqual([T0 - 24 * HOUR, T0, T0 + HOUR]);
    // A taken name (without case) gets " (2)"; the notes of both are there.
    expect((await store.views.list(a)).map((v) => v.name)).toEqual(["Weekly AI", "weekly ai (2)"]);
    expect((await store.annotations.list(a, { from: "2026-10-01", to: "2026-10-31" })).map((n) => n.text).sort()).toEqual(["note of a", "note of b"]);
    // The digest this workspace had stays where it went.
    const destinations = new Map((await store.alerts.destinations(a)).map((d) => [d.name, d.id]));
    expect([...destinations.keys()].sort()).toEqual(["hook a", "hook b"]);
    const aLink = (await store.shares.list(a)).find((l) => l.name === "link of a");
    expect(await store.alerts.digest(a)).toEqual({ destinationId: destinations.get("hook a"), shareId: aLink!.id });
    // b's destination still opens (its URL and secret are sealed to its id, which did not change).
    expect(await store.alerts.openDestination(destinations.get("hook b")!)).toMatchObject({ url: "https://b.example/hook", workspaceId: a });
  });

  it("merging: a snapshot at an `at` both hold is kept once (this workspace's), a kept day by its later reading, numbered names stay within 80 characters", async () => {
    let now = T0;
    const { store } = await openWithDb(kind, { now: () => now });
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    const b = (await store.workspaces.workspaceForKey(KEY_B)).id;
    await store.snapshots.recordScore(a, {
      at: T0,
      score: 61,
      direction: "up",
      change: 1,
      breakdown: { visibility: 1, sentiment: 1, authority: 1, coverage: 1 },
    });
    await store.snapshots.putDailyFigures(a, { kind: "sources", date: "2026-10-01", tz: "UTC", data: "a, earlier" });
    await store.snapshots.putDailyFigures(a, { kind: "sources", date: "2026-10-03", tz: "UTC", data: "a, later" });
    const long = "x".repeat(80);
    await store.views.create(a, { name: long, path: "/", query: {} });
    await store.views.create(a, { name: "Mine", path: "/", query: {} });
    await store.views.create(a, { name: "Mine (2)", path: "/", query: {} });
    now += HOUR;
    await store.snapshots.recordScore(b, {
      at: T0,
      score: 99,
      direction: "up",
      change: 1,
      breakdown: { visibility: 9, sentiment: 9, authority: 9, coverage: 9 },
    });
    await store.snapshots.putDailyFigures(b, { kind: "sources", date: "2026-10-01", tz: "UTC", data: "b, later" });
    now -= 2 * HOUR;
    await store.snapshots.putDailyFigures(b, { kind: "sources", date: "2026-10-03", tz: "UTC", data: "b, earlier" });
    now += 2 * HOUR;
    await store.views.create(b, { name: long.toUpperCase(), path: "/", query: {} });
    await store.views.create(b, { name: "mine", path: "/", query: {} });

    await store.workspaces.linkKey(a, KEY_B);
    const scores = await store.snapshots.scoreHistory(a, { from: 0, to: T0 + HOUR });
    expect(scores.map((s) => [s.at, s.score])).toEqual([[T0, 61]]);
    const days = await store.snapshots.dailyFigures(a, { kind: "sources", tz: "UTC", from: "2026-10-01", to: "2026-10-31" });
    expect(days.map((d) => d.data)).toEqual(["b, later", "a, later"]);
    const names = (await store.views.list(a)).map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(["Mine", "Mine (2)", "mine (3)", `${"X".repeat(76)} (2)`]));
    expect(names.every((n) => [...n].length <= 80)).toBe(true);
  });

  it("merging: this workspace's watching stays; when only the other was watched its kept key comes along, sealed for this one", async () => {
    const { store } = await openWithDb(kind);
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    const b = (await store.workspaces.workspaceForKey(KEY_B)).id;
    await store.workspaces.setWatching(b, KEY_B);
    await store.workspaces.linkKey(a, KEY_B);
    expect((await store.workspaces.workspace(a))!.watching).toBe("on");
    expect(await store.workspaces.watchingKey(a)).toBe(KEY_B);
    expect(await store.workspaces.watchedWorkspaces()).toEqual([a]);

    // Both watched: this one's own key stays.
    const c = (await store.workspaces.workspaceForKey(KEY_C)).id;
    await store.workspaces.setWatching(c, KEY_C);
    await store.workspaces.linkKey(c, KEY_A);
    expect(await store.workspaces.watchingKey(c)).toBe(KEY_C);
    expect(await store.workspaces.watchedWorkspaces()).toEqual([c]);
    expect((await store.workspaces.keptSummary(c)).keptKey).toBe(true);
  });

  it("merging: a kept key no configured secret opens cannot come along (it is sealed for the workspace that goes): watching paused, saying so", async () => {
    const config = await stores.config(kind);
    const before = await stores.open(config, { secrets: () => ({ current: "a-secret-this-server-no-longer-has-0000000" }) });
    await before.workspaces.setWatching((await before.workspaces.workspaceForKey(KEY_B)).id, KEY_B);
    await before.close();
    const store = await stores.open(config);
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    expect(await store.workspaces.linkKey(a, KEY_B)).toMatchObject({ merged: true });
    expect(await store.workspaces.workspace(a)).toMatchObject({ watching: "paused", pausedReason: expect.stringMatching(/could not be read/) });
    expect(await store.workspaces.watchingKey(a)).toBeUndefined();
    expect((await store.workspaces.keptSummary(a)).keptKey).toBe(false);
  });

  it("deleting a workspace removes every table's rows of it, its keys and its kept key, and nothing of another", async () => {
    const { store, db } = await openWithDb(kind);
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    await store.workspaces.linkKey(a, KEY_B);
    const other = (await store.workspaces.workspaceForKey(KEY_C)).id;
    await fill(store, a, "a", { ats: [T0, T0 + HOUR], view: "Mine" });
    await fill(store, other, "c", { ats: [T0], view: "Mine" });
    await store.workspaces.setWatching(a, KEY_A);
    const before = await rowsOf(db, a);
    for (const table of tableNames()) expect(`${table}: ${before[table]! > 0}`).toBe(`${table}: true`);
    expect(await store.workspaces.keptSummary(a)).toEqual({
      snapshots: 2,
      notes: 1,
      views: 1,
      alertDestinations: 1,
      alertRules: 1,
      shares: 1,
      keptKey: true,
      activity: 1,
      keptDays: 1,
      tokens: 1,
    });
    const otherBefore = await rowsOf(db, other);

    const gone = await store.workspaces.deleteWorkspace(a);
    expect(gone?.map((k) => k.keyHint).sort()).toEqual(["svc_sk_live_…10ab", "svc_sk_live_…6789"]);
    expect(gone?.map((k) => k.id).sort()).toEqual([store.workspaces.linkIdOf(KEY_A), store.workspaces.linkIdOf(KEY_B)].sort());
    expect(await rowsOf(db, a)).toEqual(Object.fromEntries(tableNames().map((t) => [t, 0])));
    expect(await store.workspaces.workspace(a)).toBeUndefined();
    expect(await store.workspaces.watchedWorkspaces()).toEqual([]);
    expect(await rowsOf(db, other)).toEqual(otherBefore);
    // Deleting it again finds nothing; its keys open new, empty workspaces.
    expect(await store.workspaces.deleteWorkspace(a)).toBeUndefined();
    const fresh = await store.workspaces.workspaceForKey(KEY_A);
    expect(fresh.id).not.toBe(a);
    expect(await store.workspaces.keptSummary(fresh.id)).toEqual({
      snapshots: 0,
      notes: 0,
      views: 0,
      alertDestinations: 0,
      alertRules: 0,
      shares: 0,
      keptKey: false,
      activity: 0,
      keptDays: 0,
      tokens: 0,
    });
    expect((await store.workspaces.workspaceForKey(KEY_B)).id).not.toBe(fresh.id);
  });

  it("unlinking: another key's link goes (it opens a fresh workspace), the caller's own key is a conflict, an unknown id is nothing", async () => {
    const { store } = await openWithDb(kind);
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    await store.workspaces.linkKey(a, KEY_B);
    await store.views.create(a, { name: "Kept", path: "/", query: {} });
    const keys = await store.workspaces.linkedKeys(a);
    const own = keys.find((k) => k.id === store.workspaces.linkIdOf(KEY_A))!;
    const other = keys.find((k) => k.id === store.workspaces.linkIdOf(KEY_B))!;
    // The id is the link's own, not the fingerprint the store finds the key by.
    expect(other.id).not.toContain(store.workspaces.fingerprint(KEY_B).slice(0, 10));

    await expect(store.workspaces.unlinkKey(a, own.id, KEY_A)).rejects.toBeInstanceOf(StoreConflictError);
    expect(await store.workspaces.unlinkKey(a, "lk_unknown", KEY_A)).toBeUndefined();
    expect(await store.workspaces.unlinkKey(a, other.id, KEY_A)).toEqual(other);
    expect((await store.workspaces.linkedKeys(a)).map((k) => k.id)).toEqual([own.id]);
    const fresh = await store.workspaces.workspaceForKey(KEY_B);
    expect(fresh.id).not.toBe(a);
    expect(await store.views.list(fresh.id)).toEqual([]);
    expect((await store.views.list(a)).map((v) => v.name)).toEqual(["Kept"]);
    // Another workspace's link id is unknown here.
    expect(await store.workspaces.unlinkKey(fresh.id, own.id, KEY_B)).toBeUndefined();
  });

  it("writes racing a merge land in the merged workspace or are refused, never lost; two sessions linking each other's key at once make one workspace", async () => {
    const { store, db } = await openWithDb(kind);
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    const b = (await store.workspaces.workspaceForKey(KEY_B)).id;
    const writes = [...Array(12)].map((_, i) =>
      i % 3 === 0
        ? store.annotations.create(b, { date: "2026-10-05", text: `racing note ${i}` }).then(() => `note ${i}`)
        : i % 3 === 1
          ? store.views.create(b, { name: `Racing ${i}`, path: "/", query: {} }).then(() => `view ${i}`)
          : store.snapshots
              .recordScore(b, { at: T0 + i, score: i, direction: "up", change: 0, breakdown: { visibility: 0, sentiment: 0, authority: 0, coverage: 0 } })
              .then(() => `score ${i}`),
    );
    const [merge, ...outcomes] = await Promise.allSettled([store.workspaces.linkKey(a, KEY_B), ...writes]);
    expect(merge.status).toBe("fulfilled");
    const landed = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    for (const o of outcomes) {
      // Refused as a conflict (notes, views: the workspace is gone), or by the database's key (a snapshot).
      if (o.status === "rejected") expect(String(o.reason)).toMatch(/merged into another|FOREIGN KEY|foreign key/);
    }
    const notes = (await store.annotations.list(a, { from: "2026-10-01", to: "2026-10-31" })).map((n) => `note ${n.text.split(" ").pop()}`);
    const views = (await store.views.list(a)).map((v) => `view ${v.name.split(" ").pop()}`);
    const scores = (await store.snapshots.scoreHistory(a, { from: 0, to: T0 + 100 })).map((s) => `score ${s.at - T0}`);
    expect([...notes, ...views, ...scores].sort()).toEqual(landed.sort());
    expect(Object.values(await rowsOf(db, b)).every((n) => n === 0)).toBe(true);

    // Each session links the other's key at once: one merge wins, the other finds its workspace gone or already one.
    const c = (await store.workspaces.workspaceForKey(KEY_C)).id;
    await store.views.create(c, { name: "From c", path: "/", query: {} });
    const crosswise = await Promise.allSettled([store.workspaces.linkKey(a, KEY_C), store.workspaces.linkKey(c, KEY_A)]);
    expect(crosswise.some((o) => o.status === "fulfilled")).toBe(true);
    for (const o of crosswise) if (o.status === "rejected") expect(o.reason).toBeInstanceOf(StoreConflictError);
    const survivor = (await store.workspaces.workspaceForKey(KEY_A)).id;
    expect((await store.workspaces.workspaceForKey(KEY_B)).id).toBe(survivor);
    expect((await store.workspaces.workspaceForKey(KEY_C)).id).toBe(survivor);
    expect((await store.views.list(survivor)).map((v) => v.name)).toContain("From c");
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from workspaces`.execute(db);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it("writes racing a delete are deleted with the workspace or refused: nothing of it is left", async () => {
    const { store, db } = await openWithDb(kind);
    const a = (await store.workspaces.workspaceForKey(KEY_A)).id;
    await fill(store, a, "a", { ats: [T0], view: "Mine" });
    const writes = [...Array(9)].map((_, i) =>
      i % 3 === 0
        ? store.annotations.create(a, { date: "2026-10-05", text: `racing note ${i}` })
        : i % 3 === 1
          ? store.views.create(a, { name: `Racing ${i}`, path: "/", query: {} })
          : store.snapshots.recordScore(a, {
              at: T0 + i,
              score: i,
              direction: "up",
              change: 0,
              breakdown: { visibility: 0, sentiment: 0, authority: 0, coverage: 0 },
            }),
    );
    const [deleted, ...outcomes] = await Promise.allSettled([store.workspaces.deleteWorkspace(a), ...writes]);
    expect(deleted.status).toBe("fulfilled");
    for (const o of outcomes) if (o.status === "rejected") expect(String(o.reason)).toMatch(/merged into another|FOREIGN KEY|foreign key/);
    expect(await rowsOf(db, a)).toEqual(Object.fromEntries(tableNames().map((t) => [t, 0])));
  });
});
