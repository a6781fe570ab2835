// Annotations on both databases: the notes touching a range (spans by any of their days), in order;
// the text kept as given (its schema, lib/annotations/schema.ts, judged it before); the 1,000 bound held also by creates racing each other; updates
// applied only on the version read, in one statement, the version moving strictly forward even within
// one millisecond; and no function reaching another workspace's notes.
import { describe, expect, it } from "vitest";
import { ANNOTATIONS_PER_WORKSPACE } from "@/lib/annotations/limits";
import { StoreInputError, StoreLimitError } from "./errors";
import type { WorkspaceId } from "./schema";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();

const KEY_A = "svc_sk_live_annotations_A_0123456789abcdef";
const KEY_B = "svc_sk_live_annotations_B_0123456789abcdef";

async function twoWorkspaces(store: Store): Promise<[WorkspaceId, WorkspaceId]> {
  return [(await store.workspaces.workspaceForKey(KEY_A)).id, (await store.workspaces.workspaceForKey(KEY_B)).id];
}

describe.each(STORE_KINDS)("annotations (%s)", (kind) => {
  it("lists the notes touching a range, by date then creation; a span counts by any of its days", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t++ });
    const [a, b] = await twoWorkspaces(store);
    const make = (date: string, endDate: string | null, text: string) => store.annotations.create(a, { date, endDate, text });
    const late = await make("2026-11-10", null, "late");
    const span = await make("2026-10-28", "2026-11-02", "span into the range");
    const before = await make("2026-10-20", "2026-10-31", "ends before");
    const first = await make("2026-11-01", null, "first day");
    const sameDayLater = await make("2026-11-01", null, "same day, made later");
    const after = await make("2026-11-16", null, "after");
    await store.annotations.create(b, { date: "2026-11-05", text: "another workspace" });

    const listed = await store.annotations.list(a, { from: "2026-11-01", to: "2026-11-15" });
    expect(listed.map((n) => n.text)).toEqual([span.text, first.text, sameDayLater.text, late.text]);
    // The edges are inclusive on both sides.
    expect((await store.annotations.list(a, { from: "2026-10-31", to: "2026-10-31" })).map((n) => n.id)).toEqual([before.id, span.id]);
    expect((await store.annotations.list(a, { from: "2026-11-16", to: "2026-12-31" })).map((n) => n.id)).toEqual([after.id]);
    expect(await store.annotations.list(a, { from: "2026-12-01", to: "2026-12-31" })).toEqual([]);
    expect(first).toEqual({
      id: expect.stringMatching(/^ann_[A-Za-z0-9_-]{22}$/),
      date: "2026-11-01",
      endDate: null,
      text: "first day",
      author: null,
      createdAt: expect.any(Number),
      updatedAt: first.createdAt,
    });
    expect(new Set([late, span, before, first, sameDayLater, after].map((n) => n.id)).size).toBe(6);
  });

  it("keeps the text as written (markup included) and the author, as the schema admitted them", async () => {
    const store = await stores.open(kind);
    const [a] = await twoWorkspaces(store);
    const note = await store.annotations.create(a, { date: "2026-11-03", text: "<b>paused</b> & 'quoted' 🚀", author: "Ana" });
    expect(note).toMatchObject({ text: "<b>paused</b> & 'quoted' 🚀", author: "Ana" });
    expect(await store.annotations.note(a, note.id)).toEqual(note);
    // 280 characters counted as code points: 280 emoji are 560 UTF-16 units.
    const long = await store.annotations.create(a, { date: "2026-11-03", text: "🚀".repeat(280) });
    expect((await store.annotations.note(a, long.id))?.text).toBe("🚀".repeat(280));
    expect(await store.annotations.count(a)).toBe(2);
  });

  it("updates only on the version read, moving it strictly forward within one millisecond; tells apart a missing note and a newer one", async () => {
    const t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a, b] = await twoWorkspaces(store);
    const note = await store.annotations.create(a, { date: "2026-11-03", text: "first", author: "Ana" });

    const one = await store.annotations.update(a, note.id, note.updatedAt, { text: "second" });
    expect(one).toEqual({ outcome: "updated", note: { ...note, text: "second", updatedAt: t + 1 } });
    if (one.outcome !== "updated") throw new Error("not updated");
    const two = await store.annotations.update(a, note.id, one.note.updatedAt, { endDate: "2026-11-05", author: null });
    expect(two).toEqual({ outcome: "updated", note: { ...one.note, endDate: "2026-11-05", author: null, updatedAt: t + 2 } });

    // The version read before the last change: a conflict, with the note as it is now; nothing changed.
    const stale = await store.annotations.update(a, note.id, one.note.updatedAt, { text: "mine" });
    expect(stale).toEqual({ outcome: "conflict", current: (two as { note: unknown }).note });
    expect((await store.annotations.note(a, note.id))?.text).toBe("second");

    // Another workspace cannot change or delete it, and is told there is no such note.
    expect(await store.annotations.update(b, note.id, t + 2, { text: "theirs" })).toEqual({ outcome: "not_found" });
    expect(await store.annotations.remove(b, note.id)).toBe(false);
    expect(await store.annotations.update(a, "ann_nope", t, { text: "x" })).toEqual({ outcome: "not_found" });

    // A new date after the stored end, or a new end before the stored date, is refused by the statement itself.
    await expect(store.annotations.update(a, note.id, t + 2, { date: "2026-11-06" })).rejects.toMatchObject({ param: "date" });
    await expect(store.annotations.update(a, note.id, t + 2, { endDate: "2026-11-02" })).rejects.toBeInstanceOf(StoreInputError);
    const moved = await store.annotations.update(a, note.id, t + 2, { date: "2026-11-04" });
    expect(moved).toMatchObject({ outcome: "updated", note: { date: "2026-11-04", endDate: "2026-11-05", updatedAt: t + 3 } });

    expect(await store.annotations.remove(a, note.id)).toBe(true);
    expect(await store.annotations.remove(a, note.id)).toBe(false);
    expect(await store.annotations.list(a, { from: "2026-01-01", to: "2026-12-31" })).toEqual([]);
  });

  it("later changes take the clock's time when it is ahead of the last version", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a] = await twoWorkspaces(store);
    const note = await store.annotations.create(a, { date: "2026-11-03", text: "x" });
    t += 5000;
    expect(await store.annotations.update(a, note.id, note.updatedAt, { text: "y" })).toMatchObject({ note: { updatedAt: t, createdAt: note.createdAt } });
  });

  it(`keeps at most ${ANNOTATIONS_PER_WORKSPACE} notes per workspace, also when creates race`, async () => {
    const store = await stores.open(kind);
    const [a, b] = await twoWorkspaces(store);
    for (let i = 0; i < ANNOTATIONS_PER_WORKSPACE - 5; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, ANNOTATIONS_PER_WORKSPACE - 5 - i) }, (_, j) =>
          store.annotations.create(a, { date: "2026-11-03", text: `note ${i + j}` }),
        ),
      );
    }
    expect(await store.annotations.count(a)).toBe(ANNOTATIONS_PER_WORKSPACE - 5);
    // 12 at once for the last 5 places (on PostgreSQL over 4 connections): exactly 5 get in.
    const raced = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => store.annotations.create(a, { date: "2026-11-04", text: `race ${i}` })));
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of raced.filter((r) => r.status === "rejected")) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(StoreLimitError);
    expect(await store.annotations.count(a)).toBe(ANNOTATIONS_PER_WORKSPACE);
    // The bound is the workspace's: another one still writes.
    await store.annotations.create(b, { date: "2026-11-03", text: "fine" });
    expect(await store.annotations.count(b)).toBe(1);
  }, 60_000);
});
