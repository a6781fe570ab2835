// The in-process export store on an injected clock: the running-export bound counts only exports
// still writing, ids are never taken twice, records expire, the per-key bound gives up finished
// records first, and statusOf turns a record into what the browser reads (lost exports as failed,
// waits as seconds from now).
import { describe, expect, it } from "vitest";
import { MAX_EXPORTS_PER_OWNER, MemoryExportStatusStore, STALE_MS, statusOf, type ExportRecord } from "./registry";

const T0 = Date.parse("2026-11-20T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

function record(id: string, at: number, patch: Partial<ExportRecord> = {}): ExportRecord {
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

describe("MemoryExportStatusStore", () => {
  it("lets at most maxRunning exports of a key run, counting only those still writing", async () => {
    let now = T0;
    const store = new MemoryExportStatusStore(100, () => now);
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
    const store = new MemoryExportStatusStore(100, () => now);
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
    now += 3600_000 + 1;
    expect(await store.list("k1")).toEqual([]);
    expect(await store.get("k1", "running")).toBeUndefined();
  });

  it("keeps a cancel request apart from the record, so progress writes do not lose it", async () => {
    const store = new MemoryExportStatusStore();
    await store.put("k1", record("a", T0), 3600_000);
    expect(await store.isCancelRequested("k1", "a")).toBe(false);
    await store.requestCancel("k1", "a", 3600_000);
    await store.put("k1", record("a", T0, { rows_written: 500 }), 3600_000);
    expect(await store.isCancelRequested("k1", "a")).toBe(true);
    expect(await store.isCancelRequested("k2", "a")).toBe(false);
  });
});

describe("statusOf", () => {
  it("gives waits and the estimate as seconds from now, without the session", () => {
    const now = T0 + 10_000;
    const status = statusOf(record("a", T0, { state: "waiting", updated_at: iso(now), wait_until: iso(now + 37_200), estimated_end: iso(now + 95_000) }), now);
    expect(status).toMatchObject({ state: "waiting", wait_seconds: 38, seconds_left: 95 });
    expect(status).not.toHaveProperty("session");
    expect(status).not.toHaveProperty("wait_until");
  });

  it("shows an export that stopped writing as failed (lost), and a finished one without estimates", () => {
    const lost = statusOf(record("a", T0, { estimated_end: iso(T0 + 60_000) }), T0 + STALE_MS + 1);
    expect(lost).toMatchObject({ state: "failed", error: { code: "export_lost" } });
    const done = statusOf(record("b", T0, { state: "complete", estimated_end: iso(T0 + 60_000) }), T0 + 1000);
    expect(done.seconds_left).toBeUndefined();
  });
});
