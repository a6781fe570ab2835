// The kept days' contract, on the embedded database and on PostgreSQL: what is kept is read back
// for exactly the spans asked (not a neighbour's, not another figure's, not another workspace's), a
// day kept again replaces the first, a confirmation moves only `checked_at` of the rows named, bad
// input is refused naming what is wrong, merging two workspaces keeps of the same day the one
// confirmed later, and deleting a workspace deletes its kept days.
import { describe, expect, it } from "vitest";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();

/** The kept rows of one figure. */
const readOne = async (store: Store, workspace: WorkspaceId, figure: string, spans: Array<{ startMs: number; endMs: number }>) =>
  (await store.keptDays.read(workspace, [figure], spans)).get(figure)!;
const DAY = 86_400_000;
const D0 = Date.UTC(2026, 10, 1);
const day = (i: number, offset = 0) => ({ startMs: D0 + i * DAY + offset, endMs: D0 + (i + 1) * DAY + offset });

describe.each(STORE_KINDS)("kept days (%s)", (kind) => {
  it("reads back exactly the spans asked, per workspace and figure; keeping again replaces; a confirmation moves checked_at only", async () => {
    let now = D0 + 40 * DAY;
    const store = await stores.open(kind, { now: () => now });
    const a = (await store.workspaces.workspaceForKey("svc_sk_test_kept_a_0123456789")).id;
    const b = (await store.workspaces.workspaceForKey("svc_sk_test_kept_b_0123456789")).id;
    await store.keptDays.keep(a, [
      { figure: "vd2", ...day(0), data: { visitors: 10 }, checks: { rows: 10, converted: 1 } },
      { figure: "vd2", ...day(1), data: { visitors: 11 }, checks: { rows: 11, converted: 2 } },
      { figure: "cd2", ...day(1), data: [{ country: "DE" }], checks: { rows: 11, converted: 2 } },
      // The same instants' day in a zone an hour off is another day.
      { figure: "vd2", ...day(1, 3_600_000), data: { visitors: 99 }, checks: { rows: 99 } },
    ]);
    await store.keptDays.keep(b, [{ figure: "vd2", ...day(0), data: { visitors: 500 }, checks: { rows: 500 } }]);

    const read = await readOne(store, a, "vd2", [day(0), day(1), day(2)]);
    expect([...read.keys()]).toEqual(expect.arrayContaining([`${day(0).startMs}-${day(0).endMs}`, `${day(1).startMs}-${day(1).endMs}`]));
    expect(read.size).toBe(2);
    expect(read.get(`${day(1).startMs}-${day(1).endMs}`)).toEqual({
      ...day(1),
      data: { visitors: 11 },
      checks: { rows: 11, converted: 2 },
      keptAt: now,
      checkedAt: now,
    });
    expect((await readOne(store, b, "vd2", [day(0)])).get(`${day(0).startMs}-${day(0).endMs}`)?.data).toEqual({ visitors: 500 });
    expect((await readOne(store, a, "md2", [day(0), day(1)])).size).toBe(0);

    now += DAY;
    await store.keptDays.confirm(a, ["vd2", "cd2"], [day(1)]);
    const confirmed = await readOne(store, a, "vd2", [day(0), day(1)]);
    expect(confirmed.get(`${day(1).startMs}-${day(1).endMs}`)).toMatchObject({ keptAt: now - DAY, checkedAt: now, data: { visitors: 11 } });
    expect(confirmed.get(`${day(0).startMs}-${day(0).endMs}`)).toMatchObject({ checkedAt: now - DAY });
    expect((await readOne(store, a, "cd2", [day(1)])).get(`${day(1).startMs}-${day(1).endMs}`)).toMatchObject({ checkedAt: now });
    // Another workspace's same day is not touched.
    expect((await readOne(store, b, "vd2", [day(0)])).get(`${day(0).startMs}-${day(0).endMs}`)).toMatchObject({ checkedAt: now - DAY });

    now += DAY;
    await store.keptDays.keep(a, [{ figure: "vd2", ...day(1), data: { visitors: 12 }, checks: { rows: 12, converted: 3 } }]);
    expect((await readOne(store, a, "vd2", [day(1)])).get(`${day(1).startMs}-${day(1).endMs}`)).toEqual({
      ...day(1),
      data: { visitors: 12 },
      checks: { rows: 12, converted: 3 },
      keptAt: now,
      checkedAt: now,
    });
    expect(await store.keptDays.size(a)).toEqual({ days: 4, bytes: expect.any(Number) });
  });

  it("keeps a listing of hundreds of days and figures in one call, and refuses a bad figure or span naming it", async () => {
    const store = await stores.open(kind);
    const a = (await store.workspaces.workspaceForKey("svc_sk_test_kept_c_0123456789")).id;
    const many = ["vd2", "cd2", "md2", "qd2"].flatMap((figure) =>
      Array.from({ length: 366 }, (_, i) => ({ figure, ...day(i), data: { i }, checks: { rows: i } })),
    );
    await store.keptDays.keep(a, many);
    const read = await store.keptDays.read(
      a,
      ["qd2", "vd2"],
      Array.from({ length: 366 }, (_, i) => day(i)),
    );
    expect([read.get("qd2")!.size, read.get("vd2")!.size]).toEqual([366, 366]);
    expect(read.get("qd2")!.get(`${day(365).startMs}-${day(365).endMs}`)?.data).toEqual({ i: 365 });
    await expect(store.keptDays.keep(a, [{ figure: "VD2; drop", ...day(0), data: 1, checks: {} }])).rejects.toMatchObject({ param: "figure" });
    await expect(store.keptDays.keep(a, [{ figure: "vd2", startMs: D0, endMs: D0, data: 1, checks: {} }])).rejects.toMatchObject({ param: "span" });
    await expect(store.keptDays.read(a, ["vd2"], [{ startMs: 1.5, endMs: 3 }])).rejects.toMatchObject({ param: "span" });
    await expect(store.keptDays.keep(a, [{ figure: "vd2", ...day(0), data: 1, checks: {}, readAt: -1 }])).rejects.toMatchObject({ param: "readAt" });
  });

  it("a figure read before it was written (today so far) is kept and checked as of its reading, so a reader can tell its age", async () => {
    const store = await stores.open(kind);
    const a = (await store.workspaces.workspaceForKey("svc_sk_test_kept_d_0123456789")).id;
    const readAt = day(0).startMs + 3_600_000;
    await store.keptDays.keep(a, [
      { figure: "vc:*:*", ...day(0), data: 40, checks: { rows: 40 }, readAt },
      { figure: "vc:*:converted", ...day(0), data: 4, checks: { rows: 4 } },
    ]);
    const read = await store.keptDays.read(a, ["vc:*:*", "vc:*:converted"], [day(0)]);
    const key = `${day(0).startMs}-${day(0).endMs}`;
    expect(read.get("vc:*:*")!.get(key)).toMatchObject({ data: 40, keptAt: readAt, checkedAt: readAt });
    // Without it, as of the write (the store's clock, later than the reading here).
    expect(read.get("vc:*:converted")!.get(key)!.keptAt).toBeGreaterThan(readAt);
    // Read again later (the day over): the row is replaced, with its new reading.
    await store.keptDays.keep(a, [{ figure: "vc:*:*", ...day(0), data: 52, checks: { rows: 52 }, readAt: day(0).endMs + 60_000 }]);
    expect((await store.keptDays.read(a, ["vc:*:*"], [day(0)])).get("vc:*:*")!.get(key)).toMatchObject({ data: 52, keptAt: day(0).endMs + 60_000 });
  });

  it("the zones the members read in: the latest first, since a time, at most a number; a bad zone refused", async () => {
    let now = D0;
    const store = await stores.open(kind, { now: () => now });
    const a = (await store.workspaces.workspaceForKey("svc_sk_test_kept_f_0123456789")).id;
    const b = (await store.workspaces.workspaceForKey("svc_sk_test_kept_g_0123456789")).id;
    for (const tz of ["UTC", "Europe/Berlin", "Asia/Kolkata", "UTC"]) {
      await store.keptDays.noteZone(a, tz);
      now += DAY;
    }
    await store.keptDays.noteZone(b, "America/New_York");
    expect(await store.keptDays.zones(a, D0, 5)).toEqual(["UTC", "Asia/Kolkata", "Europe/Berlin"]);
    expect(await store.keptDays.zones(a, D0 + 2 * DAY, 5)).toEqual(["UTC", "Asia/Kolkata"]);
    expect(await store.keptDays.zones(a, D0, 1)).toEqual(["UTC"]);
    await expect(store.keptDays.noteZone(a, "Nowhere/City")).rejects.toMatchObject({ param: "tz" });
  });

  it("merging two workspaces keeps of the same day the one confirmed later; deleting a workspace deletes its kept days", async () => {
    let now = D0 + 40 * DAY;
    const store = await stores.open(kind, { now: () => now });
    const keyA = "svc_sk_test_kept_d_0123456789";
    const keyB = "svc_sk_test_kept_e_0123456789";
    const a = (await store.workspaces.workspaceForKey(keyA)).id;
    const b = (await store.workspaces.workspaceForKey(keyB)).id;
    await store.keptDays.keep(a, [
      { figure: "vd2", ...day(0), data: "a, earlier", checks: { rows: 1 } },
      { figure: "vd2", ...day(1), data: "a, later", checks: { rows: 1 } },
    ]);
    now += 1000;
    await store.keptDays.keep(b, [
      { figure: "vd2", ...day(0), data: "b, later", checks: { rows: 2 } },
      { figure: "vd2", ...day(2), data: "b only", checks: { rows: 2 } },
    ]);
    now += 1000;
    await store.keptDays.confirm(a, ["vd2"], [day(1)]);
    await store.keptDays.keep(b, [{ figure: "vd2", ...day(1), data: "b, earlier", checks: { rows: 2 } }]);
    // b's day 1 was read after a's was confirmed: confirm a's again so it is the later one.
    now += 1000;
    await store.keptDays.confirm(a, ["vd2"], [day(1)]);

    await store.workspaces.linkKey(a, keyB);
    const merged = await readOne(store, a, "vd2", [day(0), day(1), day(2)]);
    expect([0, 1, 2].map((i) => merged.get(`${day(i).startMs}-${day(i).endMs}`)?.data)).toEqual(["b, later", "a, later", "b only"]);

    expect(await store.workspaces.deleteWorkspace(a)).toBeDefined();
    const again = (await store.workspaces.workspaceForKey(keyA)).id;
    expect((await readOne(store, again, "vd2", [day(0), day(1), day(2)])).size).toBe(0);
    expect(await store.keptDays.size(a)).toEqual({ days: 0, bytes: 0 });
  });
});
