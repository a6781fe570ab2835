// What every ExportStatusStore must do, on an injected clock: the in-process store (registry.test.ts)
// and the Redis one (lib/shared-state/redis/export-status.test.ts) run the same checks. The running-export
// bound counts only exports still writing, ids are never taken twice, records expire, the per-key
// bound gives up finished records first, and a cancel request outlives progress writes.
import { describe, expect, it } from "vitest";
import { MAX_EXPORTS_PER_OWNER, STALE_MS, type ExportRecord, type ExportStatusStore } from "./export-status";

export const T0 = Date.parse("2026-11-20T12:00:00Z");
export const iso = (ms: number) => new Date(ms).toISOString();

export function record(id: string, at: number, patch: Partial<ExportRecord> = {}): ExportRecord {
  return {
    id,
    session: "s1",
    resource: "visitors",
    format: "csv",
    filename: "visitors_2026-11-20.csv",
    state: "running",
    rows_written: 0,
    total: 1000,
    bytes: 0,
    unreadable: { count: 0, request_ids: [] },
    started_at: iso(at),
    updated_at: iso(at),
    ...patch,
  };
}

/** `make` gives a fresh, empty store reading the clock it is given. */
export function exportStatusContract(name: string, make: (now: () => number) => ExportStatusStore | Promise<ExportStatusStore>): void {
  describe(name, () => {
    it("lets at most maxRunning exports of a key run, counting only those still writing", async () => {
      let now = T0;
      const store = await make(() => now);
      const begin = (id: string) => store.begin("k1", record(id, now), { maxRunning: 2, freshSince: iso(now - STALE_MS), ttlMs: 3600_000 });
      expect(await begin("a")).toBe("started");
      expect(await begin("a")).toBe("exists");
      expect(await begin("b")).toBe("started");
      expect(await begin("c")).toBe("busy");
      // Another key has its own places.
      expect(await store.begin("k2", record("c", now), { maxRunning: 2, freshSince: iso(now - STALE_MS), ttlMs: 3600_000 })).toBe("started");
      // A finished export gives its place back.
      await store.put("k1", record("a", T0, { state: "complete" }), 3600_000);
      expect(await begin("c")).toBe("started");
      // An export that stopped writing (its instance died) no longer holds one.
      now += STALE_MS + 1000;
      await store.put("k1", record("b", T0, { updated_at: iso(now) }), 3600_000);
      expect(await begin("d")).toBe("started");
      expect(await begin("e")).toBe("busy");
    });

    it("lists a key's records newest first, keeps at most MAX_EXPORTS_PER_OWNER (finished ones go first) and expires them", async () => {
      let now = T0;
      const store = await make(() => now);
      await store.put("k1", record("running", now), 3600_000);
      for (let i = 0; i < MAX_EXPORTS_PER_OWNER + 5; i++) {
        now += 1000;
        await store.put("k1", record(`done${i}`, now, { state: "complete" }), 3600_000);
      }
      const listed = await store.list("k1");
      expect(listed).toHaveLength(MAX_EXPORTS_PER_OWNER);
      expect(listed[0]!.id).toBe(`done${MAX_EXPORTS_PER_OWNER + 4}`);
      expect(listed.map((r) => r.id)).toContain("running");
      expect(listed.map((r) => r.id)).not.toContain("done0");
      expect(await store.get("k1", "done5")).toBeUndefined();
      expect(await store.get("k1", "done6")).toMatchObject({ id: "done6", state: "complete" });
      now += 3600_000 + 1;
      expect(await store.list("k1")).toEqual([]);
      expect(await store.get("k1", "running")).toBeUndefined();
    });

    it("keeps a record as written: every field, an update replacing it", async () => {
      const store = await make(() => T0);
      const full = record("a", T0, {
        state: "waiting",
        rows_written: 300,
        bytes: 12_345,
        unreadable: { count: 1, request_ids: ["req_1"] },
        wait_until: iso(T0 + 5000),
        estimated_end: iso(T0 + 60_000),
        error: { code: "x", message: 'café \u2028 "quoted" / slash', request_id: "req_2" },
      });
      await store.put("k1", full, 3600_000);
      expect(await store.get("k1", "a")).toEqual(full);
      await store.put("k1", { ...full, state: "complete", rows_written: 1000 }, 3600_000);
      expect(await store.list("k1")).toEqual([{ ...full, state: "complete", rows_written: 1000 }]);
      expect(await store.get("k2", "a")).toBeUndefined();
    });

    it("keeps a cancel request apart from the record, so progress writes do not lose it", async () => {
      let now = T0;
      const store = await make(() => now);
      await store.put("k1", record("a", T0), 3600_000);
      expect(await store.isCancelRequested("k1", "a")).toBe(false);
      await store.requestCancel("k1", "a", 3600_000);
      await store.put("k1", record("a", T0, { rows_written: 500 }), 3600_000);
      expect(await store.isCancelRequested("k1", "a")).toBe(true);
      expect(await store.isCancelRequested("k2", "a")).toBe(false);
      now += 3600_000;
      expect(await store.isCancelRequested("k1", "a")).toBe(false);
    });
  });
}
