// Export progress through a real Redis: the same contract as the in-process store (for the Redis
// store alone and behind its fallback), two instances seeing each other's progress and cancels,
// `begin` atomic across instances, and an outage that fails nothing.
import { describe, expect, it } from "vitest";
import { exportStatusContract, iso, record } from "../export-status.contract";
import { MAX_EXPORTS_PER_OWNER, STALE_MS } from "../export-status";
import { RedisExportStatusStore, ResilientExportStatusStore } from "./export-status";
import { redisForFile, until } from "@/testing/redis-links";

const redis = redisForFile();

exportStatusContract("RedisExportStatusStore", async (now) => {
  const link = await redis.link();
  await link.client.flushdb();
  return new RedisExportStatusStore(link, now);
});

exportStatusContract("ResilientExportStatusStore (Redis up)", async (now) => {
  const link = await redis.link();
  await link.client.flushdb();
  return new ResilientExportStatusStore(link, now);
});

const HOUR = 3600_000;

describe("export progress shared by two instances", () => {
  it("progress written through A is read through B, and a cancel asked through B is seen by A", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const onA = new ResilientExportStatusStore(a, Date.now);
    const onB = new ResilientExportStatusStore(b, Date.now);
    const t = Date.now();
    expect(await onA.begin("owner-x", record("exp_1", t), { maxRunning: 3, freshSince: iso(t - STALE_MS), ttlMs: HOUR })).toBe("started");
    await onA.put("owner-x", record("exp_1", t, { rows_written: 400, updated_at: iso(t + 10) }), HOUR);
    expect(await onB.get("owner-x", "exp_1")).toMatchObject({ rows_written: 400, state: "running" });
    expect((await onB.list("owner-x")).map((r) => r.id)).toEqual(["exp_1"]);
    expect(await onA.isCancelRequested("owner-x", "exp_1")).toBe(false);
    await onB.requestCancel("owner-x", "exp_1", HOUR);
    expect(await onA.isCancelRequested("owner-x", "exp_1")).toBe(true);
    // The records live under the owner's keyed hash, and go when their last write is an hour old.
    const ttl = await a.client.pttl("wa-test:exp:owner-x");
    expect(ttl).toBeGreaterThan(HOUR - 5000);
  });

  it("begin is one step across instances: 12 exports started at once on two instances, exactly maxRunning run", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const stores = [new ResilientExportStatusStore(a, Date.now), new ResilientExportStatusStore(b, Date.now)];
    const t = Date.now();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        stores[i % 2]!.begin("owner-race", record(`exp_r${i}`, t), { maxRunning: 3, freshSince: iso(t - STALE_MS), ttlMs: HOUR }),
      ),
    );
    expect(results.filter((r) => r === "started")).toHaveLength(3);
    expect(results.filter((r) => r === "busy")).toHaveLength(9);
  });

  it("the per-owner bound holds whoever writes", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const stores = [new RedisExportStatusStore(a, Date.now), new RedisExportStatusStore(b, Date.now)];
    const t = Date.now();
    await Promise.all(
      Array.from({ length: MAX_EXPORTS_PER_OWNER * 2 }, (_, i) => stores[i % 2]!.put("owner-bound", record(`exp_b${i}`, t + i, { state: "complete" }), HOUR)),
    );
    expect(await a.client.hlen("wa-test:exp:owner-bound")).toBe(MAX_EXPORTS_PER_OWNER);
  });

  it("Redis away: progress is kept in this process and read back merged; nothing throws; back to Redis when it returns", async () => {
    const [a, b] = [await redis.link(), await redis.link()];
    const onA = new ResilientExportStatusStore(a, Date.now);
    const onB = new ResilientExportStatusStore(b, Date.now);
    const t = Date.now();
    await onA.put("owner-o", record("exp_o", t, { rows_written: 100 }), HOUR);
    await redis.server().stop({ abrupt: true });
    await until(() => a.state === "unavailable");

    expect(await onA.begin("owner-o", record("exp_p", t), { maxRunning: 3, freshSince: iso(t - STALE_MS), ttlMs: HOUR })).toBe("started");
    await onA.put("owner-o", record("exp_o", t, { rows_written: 200, updated_at: iso(t + 1000) }), HOUR);
    await onA.requestCancel("owner-o", "exp_p", HOUR);
    expect(await onA.get("owner-o", "exp_o")).toMatchObject({ rows_written: 200 });
    expect(await onA.isCancelRequested("owner-o", "exp_p")).toBe(true);
    expect(await onB.list("owner-o")).toEqual([]);

    await redis.server().start();
    await until(() => a.state === "connected" && b.state === "connected");
    // The restarted Redis is empty; A's records are still read here, and reach Redis with their next write.
    expect((await onA.list("owner-o")).map((r) => r.id).sort()).toEqual(["exp_o", "exp_p"]);
    await onA.put("owner-o", record("exp_o", t, { rows_written: 300, updated_at: iso(t + 2000) }), HOUR);
    expect(await onB.get("owner-o", "exp_o")).toMatchObject({ rows_written: 300 });
    expect(await onA.get("owner-o", "exp_o")).toMatchObject({ rows_written: 300 });
  });
});
