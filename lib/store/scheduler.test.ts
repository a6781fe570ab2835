// The background jobs on both databases, on fake time: two instances (two stores on one PostgreSQL
// database: two pools; embedded, two schedulers on the one process's store) run each slot exactly
// once; a downtime is caught up at start (the latest slot, or each); each tick renews the leases of
// its runs; a run whose instance died or stalled is taken over after its lease (and stopped where it
// stalled), and given up after its tries; outcomes are kept. A job run per workspace: each
// workspace's slot once across instances, at most `concurrency` at once per instance, a slow
// workspace holding back no other, catch-up and takeover per workspace.
import { afterEach, describe, expect, it, vi } from "vitest";
import { housekeepingJob } from "./housekeeping";
import type { StoreKind } from "./database";
import { createJobScheduler, dailySlotAt, HOUR_MS, hourlySlot, type JobDefinition, type JobScheduler, type SlotRun } from "./scheduler";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const MIN = 60_000;

const quiet = { info: () => {}, warn: () => {} };
const schedulers: JobScheduler[] = [];
afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((s) => s.stop()));
  vi.useRealTimers();
});

/** Two instances of the deployment: on PostgreSQL two pools on one database, embedded one store. */
async function twoInstances(kind: StoreKind): Promise<[Store, Store]> {
  const config = await stores.config(kind);
  const a = await stores.open(config);
  return [a, kind === "postgres" ? await stores.open(config) : a];
}

function scheduler(store: Store, definitions: JobDefinition[], now: () => number, instance: string): JobScheduler {
  const s = createJobScheduler({ jobs: async () => store.jobs, definitions, now, instance, log: quiet });
  schedulers.push(s);
  return s;
}

describe.each(STORE_KINDS)("background jobs (%s)", (kind) => {
  it("two instances ticking together run each hourly slot exactly once, and keep its outcome", async () => {
    const [storeA, storeB] = await twoInstances(kind);
    let t = T0 + 5 * MIN;
    const ran: { slot: number; by: string }[] = [];
    const job = (by: string): JobDefinition => ({
      name: "count",
      slotOf: hourlySlot,
      catchUp: "latest",
      run: async ({ slot }) => {
        ran.push({ slot, by });
        return `counted ${new Date(slot).toISOString()}`;
      },
    });
    const a = scheduler(storeA, [job("a")], () => t, "a");
    const b = scheduler(storeB, [job("b")], () => t, "b");
    for (let step = 0; step < 4 * 3; step++) {
      await Promise.all([a.tick(), b.tick()]);
      t += 20 * MIN;
    }
    const slots = ran.map((r) => r.slot);
    expect(slots).toEqual([...new Set(slots)]);
    expect(slots).toEqual([0, 1, 2, 3].map((h) => T0 + h * HOUR_MS));
    const runs = await storeA.jobs.runs("count");
    expect(runs).toHaveLength(4);
    for (const run of runs) {
      expect(run).toMatchObject({ state: "done", attempts: 1, outcome: `counted ${new Date(run.slot).toISOString()}` });
      expect(run.claimedBy).toBe(ran.find((r) => r.slot === run.slot)!.by);
    }
  });

  it("a claim is won by exactly one of many concurrent claimers", async () => {
    const [storeA, storeB] = await twoInstances(kind);
    const key = { name: "race", slot: T0 };
    const results = await Promise.all([...Array(10)].map((_, i) => (i % 2 ? storeA : storeB).jobs.claim(key, `i${i}`, T0, T0 + MIN)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = `i${results.indexOf(true)}`;
    expect((await storeB.jobs.run(key))?.claimedBy).toBe(winner);
    // Scoped slots are separate rows: the same slot for two workspaces is claimed twice.
    expect(await storeA.jobs.claim({ ...key, scope: "ws_1" }, "x", T0, T0 + MIN)).toBe(true);
    expect(await storeA.jobs.claim({ ...key, scope: "ws_2" }, "x", T0, T0 + MIN)).toBe(true);
    expect(await storeA.jobs.claim({ ...key, scope: "ws_2" }, "y", T0, T0 + MIN)).toBe(false);
  });

  it("after a downtime, a `latest` job runs only the latest due slot and an `each` job each missed one (at most maxCatchUp)", async () => {
    const store = await stores.open(kind);
    let t = T0 + 5 * MIN;
    const ran: Record<string, number[]> = { latest: [], each: [], capped: [] };
    const def = (name: string, catchUp: "latest" | "each", maxCatchUp?: number): JobDefinition => ({
      name,
      slotOf: hourlySlot,
      catchUp,
      ...(maxCatchUp ? { maxCatchUp } : {}),
      run: async ({ slot }) => void ran[name]!.push((slot - T0) / HOUR_MS),
    });
    const definitions = [def("latest", "latest"), def("each", "each"), def("capped", "each", 2)];
    await scheduler(store, definitions, () => t, "before").tick();
    expect(ran).toEqual({ latest: [0], each: [0], capped: [0] });

    // Everything down for five hours; a new process starts at 14:20.
    t = T0 + 5 * HOUR_MS + 20 * MIN;
    await scheduler(store, definitions, () => t, "after").tick();
    expect(ran).toEqual({ latest: [0, 5], each: [0, 1, 2, 3, 4, 5], capped: [0, 4, 5] });

    // A first start ever (no slot run before) runs the current slot only.
    const fresh = await stores.open(kind);
    const freshRan: number[] = [];
    await scheduler(fresh, [{ name: "each", slotOf: hourlySlot, catchUp: "each", run: async ({ slot }) => void freshRan.push(slot) }], () => t, "fresh").tick();
    expect(freshRan).toEqual([T0 + 5 * HOUR_MS]);
  });

  it("a run whose instance died is taken over after its lease, once, and given up after maxAttempts", async () => {
    const [storeA, storeB] = await twoInstances(kind);
    let t = T0 + MIN;
    const attempts: SlotRun["attempt"][] = [];
    const def: JobDefinition = {
      name: "snap",
      slotOf: hourlySlot,
      catchUp: "latest",
      leaseMs: 5 * MIN,
      maxAttempts: 3,
      run: async ({ attempt }) => void attempts.push(attempt),
    };
    // An instance claimed 09:00 and died: its row stays "running" with a lease until 09:06.
    expect(await storeA.jobs.claim({ name: "snap", slot: T0 }, "dead", t, t + 5 * MIN)).toBe(true);
    const b = scheduler(storeB, [def], () => t, "b");
    const c = scheduler(storeA, [def], () => t, "c");

    t = T0 + 5 * MIN; // lease still held
    await Promise.all([b.tick(), c.tick()]);
    expect(attempts).toEqual([]);

    t = T0 + 7 * MIN; // lease ran out: exactly one of the two takes it over
    await Promise.all([b.tick(), c.tick()]);
    expect(attempts).toEqual([2]);
    const run = await storeA.jobs.run({ name: "snap", slot: T0 });
    expect(run).toMatchObject({ state: "done", attempts: 2, finishedAt: t });
    expect(["b", "c"]).toContain(run!.claimedBy);

    // A slot whose every try died is closed as failed rather than left "running" for ever.
    t = T0 + HOUR_MS + MIN;
    await storeA.jobs.claim({ name: "snap", slot: T0 + HOUR_MS }, "dead", t, t + MIN);
    for (const tries of [2, 3]) {
      t += 2 * MIN;
      const taken = await storeA.jobs.takeOver({ name: "snap", slot: T0 + HOUR_MS }, `dead-${tries}`, t, t + MIN, 3);
      expect(taken).toBe(true);
    }
    t += 2 * MIN;
    await b.tick();
    expect(await storeA.jobs.run({ name: "snap", slot: T0 + HOUR_MS })).toMatchObject({
      state: "failed",
      attempts: 3,
      outcome: expect.stringMatching(/abandoned/),
    });
  });

  it("a stalled run loses its slot to the instance that takes it over: its late finish changes nothing", async () => {
    const [storeA, storeB] = await twoInstances(kind);
    let t = T0;
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let aborted: unknown;
    const a = scheduler(
      storeA,
      [
        {
          name: "slow",
          slotOf: hourlySlot,
          catchUp: "latest",
          leaseMs: 5 * MIN,
          run: async ({ signal }) => {
            signal.addEventListener("abort", () => (aborted = signal.reason));
            await stalled;
            return "a finished late";
          },
        },
      ],
      () => t,
      "a",
    );
    const b = scheduler(storeB, [{ name: "slow", slotOf: hourlySlot, catchUp: "latest", leaseMs: 5 * MIN, run: async () => "b took over" }], () => t, "b");
    const aTick = a.tick();
    await vi.waitFor(async () => expect((await storeA.jobs.run({ name: "slow", slot: T0 }))?.claimedBy).toBe("a"));
    t = T0 + 6 * MIN; // a never renewed (stalled): b takes over
    await b.tick();
    expect(await storeB.jobs.run({ name: "slow", slot: T0 })).toMatchObject({ state: "done", claimedBy: "b", attempts: 2, outcome: "b took over" });
    release();
    await aTick;
    expect(aborted).toBeUndefined();
    expect(await storeA.jobs.run({ name: "slow", slot: T0 })).toMatchObject({ claimedBy: "b", outcome: "b took over" });
  });

  it("each tick renews the leases of the runs going on, so nobody takes them over; a run whose instance stalls past its lease is taken over and stopped there", async () => {
    const [storeA, storeB] = await twoInstances(kind);
    const key = { name: "long", slot: T0 };
    let t = T0;
    let finish!: () => void;
    const long = new Promise<void>((resolve) => (finish = resolve));
    let stoppedWith: unknown;
    const def = (run: JobDefinition["run"]): JobDefinition => ({ name: "long", slotOf: hourlySlot, catchUp: "latest", leaseMs: 5 * MIN, run });
    const a = scheduler(
      storeA,
      [
        def(async ({ signal }) => {
          signal.addEventListener("abort", () => (stoppedWith = signal.reason));
          await long;
          return "a done";
        }),
      ],
      () => t,
      "a",
    );
    const bAttempts: number[] = [];
    const b = scheduler(storeB, [def(async ({ attempt }) => void bAttempts.push(attempt))], () => t, "b");
    const aFirst = a.tick();
    await vi.waitFor(async () => expect((await storeA.jobs.run(key))?.claimedBy).toBe("a"), { timeout: 10_000 });
    // Twelve minutes, far past the first lease, with a ticking every three: it keeps the run.
    for (let i = 0; i < 4; i++) {
      t += 3 * MIN;
      await a.tick();
      await b.tick();
    }
    expect(bAttempts).toEqual([]);
    expect(await storeA.jobs.run(key)).toMatchObject({ state: "running", claimedBy: "a", attempts: 1, leaseUntil: t + 5 * MIN });

    // a stalls (no tick) past its lease: b takes the run over; a's next tick finds it lost and stops its run.
    t += 6 * MIN;
    await b.tick();
    expect(bAttempts).toEqual([2]);
    await a.tick();
    expect(stoppedWith).toEqual(new Error("lease lost: another instance took the run over"));
    finish();
    await aFirst;
    expect(await storeA.jobs.run(key)).toMatchObject({ state: "done", claimedBy: "b", attempts: 2, outcome: null });
  });

  it("a failing run is kept as failed with its message; the next slot runs as usual", async () => {
    const store = await stores.open(kind);
    let t = T0;
    const s = scheduler(
      store,
      [
        {
          name: "flaky",
          slotOf: hourlySlot,
          catchUp: "latest",
          run: async ({ slot }) => {
            if (slot === T0) throw new Error("upstream 503 (request req_123)");
            return "ok";
          },
        },
      ],
      () => t,
      "a",
    );
    await s.tick();
    t += HOUR_MS;
    await s.tick();
    expect((await store.jobs.runs("flaky")).map((r) => [r.state, r.outcome])).toEqual([
      ["done", "ok"],
      ["failed", "upstream 503 (request req_123)"],
    ]);
  });

  it("the loop ticks every tickMs until stopped; stop aborts a run and leaves its row to be taken over", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    vi.setSystemTime(T0);
    const store = await stores.open(kind);
    const ran: number[] = [];
    let signal: AbortSignal | undefined;
    const s = createJobScheduler({
      jobs: async () => store.jobs,
      definitions: [
        { name: "tick", slotOf: (x) => Math.floor(x / MIN) * MIN, catchUp: "latest", run: async ({ slot }) => void ran.push(slot) },
        {
          name: "hang",
          slotOf: hourlySlot,
          catchUp: "latest",
          run: (r) =>
            new Promise((_, reject) => {
              signal = r.signal;
              r.signal.addEventListener("abort", () => reject(r.signal.reason));
            }),
        },
      ],
      tickMs: MIN,
      log: quiet,
    });
    s.start();
    // Each tick's queries are real I/O: let them land (vi.waitFor moves fake time only by its polls).
    await vi.waitFor(() => expect(ran).toHaveLength(1), { timeout: 10_000 });
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(MIN);
      await vi.waitFor(() => expect(ran).toHaveLength(i + 1), { timeout: 10_000 });
    }
    expect(ran).toEqual([0, 1, 2, 3].map((m) => T0 + m * MIN));
    await s.stop();
    expect(signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(5 * MIN);
    expect(ran).toHaveLength(4);
    expect(await store.jobs.run({ name: "hang", slot: T0 })).toMatchObject({ state: "running", finishedAt: null });
  });

  it("a job run per workspace: each workspace's slot runs once across two instances, at most `concurrency` at once in each, and a slow one holds back no other", async () => {
    const [storeA, storeB] = await twoInstances(kind);
    let t = T0 + MIN;
    const scopes = ["ws_a", "ws_b", "ws_c", "ws_d", "ws_e", "ws_f"];
    const ran: { scope: string; slot: number; by: string }[] = [];
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const going = new Map<string, number>();
    const most = new Map<string, number>();
    // A run (but the slow one) ends once three go on at once: one instance holds at most two, so
    // the slots are shared, or nothing ends.
    let opened = () => {};
    const threeAtOnce = new Promise<void>((resolve) => (opened = resolve));
    const total = () => [...going.values()].reduce((n, v) => n + v, 0);
    const job = (by: string): JobDefinition => ({
      name: "per-workspace",
      slotOf: hourlySlot,
      catchUp: "latest",
      concurrency: 2,
      scopes: async () => scopes,
      run: async ({ scope, slot }) => {
        going.set(by, (going.get(by) ?? 0) + 1);
        most.set(by, Math.max(most.get(by) ?? 0, going.get(by)!));
        ran.push({ scope, slot, by });
        if (total() >= 3) opened();
        if (scope === "ws_a" && slot === T0) await slow;
        else if (slot === T0) await threeAtOnce;
        going.set(by, going.get(by)! - 1);
        return `collected ${scope}`;
      },
    });
    const a = scheduler(storeA, [job("a")], () => t, "a");
    const b = scheduler(storeB, [job("b")], () => t, "b");
    const first = Promise.all([a.tick(), b.tick()]);
    // The five others are done while the slow one still runs.
    await vi.waitFor(
      async () =>
        expect(
          (await storeA.jobs.runs("per-workspace", { allScopes: true }))
            .filter((r) => r.state === "done")
            .map((r) => r.scope)
            .sort(),
        ).toEqual(scopes.slice(1)),
      10_000,
    );
    // Ticking again meanwhile (within the slow run's lease) queues nothing twice.
    t += 2 * MIN;
    await Promise.all([a.tick(), b.tick()]);
    expect(ran).toHaveLength(6);
    release();
    await first;

    const runs = await storeA.jobs.runs("per-workspace", { allScopes: true });
    expect(runs.map((r) => r.scope).sort()).toEqual(scopes);
    for (const run of runs)
      expect(run).toMatchObject({
        slot: T0,
        state: "done",
        attempts: 1,
        outcome: `collected ${run.scope}`,
        claimedBy: ran.find((r) => r.scope === run.scope)!.by,
      });
    expect(new Set(ran.map((r) => r.by))).toEqual(new Set(["a", "b"]));
    expect(Math.max(...most.values())).toBeLessThanOrEqual(2);
    // The next hour: each workspace once more.
    t = T0 + HOUR_MS + MIN;
    await Promise.all([a.tick(), b.tick()]);
    expect(
      ran
        .filter((r) => r.slot === T0 + HOUR_MS)
        .map((r) => r.scope)
        .sort(),
    ).toEqual(scopes);
    expect(await storeB.jobs.runs("per-workspace", { allScopes: true, limit: 100 })).toHaveLength(12);
    expect(await storeB.jobs.runs("per-workspace", { scope: "ws_c" })).toHaveLength(2);
  });

  it("a job run per workspace catches up each workspace's missed slots on its own, and a workspace's run whose instance died is taken over", async () => {
    const store = await stores.open(kind);
    let t = T0 + MIN;
    let scopes = ["x"];
    const ran: string[] = [];
    const def: JobDefinition = {
      name: "each-workspace",
      slotOf: hourlySlot,
      catchUp: "each",
      leaseMs: 5 * MIN,
      scopes: async () => scopes,
      run: async ({ scope, slot, attempt }) => void ran.push(`${scope} ${(slot - T0) / HOUR_MS} #${attempt}`),
    };
    await scheduler(store, [def], () => t, "first").tick();
    expect(ran).toEqual(["x 0 #1"]);
    // Down three hours; meanwhile a workspace y came: its first slot is the current one.
    t = T0 + 3 * HOUR_MS + MIN;
    scopes = ["x", "y"];
    await scheduler(store, [def], () => t, "second").tick();
    expect(ran.slice(1).sort()).toEqual(["x 1 #1", "x 2 #1", "x 3 #1", "y 3 #1"]);

    // An instance claims x's 04:00 and dies.
    t = T0 + 4 * HOUR_MS + MIN;
    expect(await store.jobs.claim({ name: "each-workspace", scope: "x", slot: T0 + 4 * HOUR_MS }, "dead", t, t + 5 * MIN)).toBe(true);
    const third = scheduler(store, [def], () => t, "third");
    await third.tick();
    expect(ran.slice(5)).toEqual(["y 4 #1"]);
    t += 5 * MIN + 1;
    await third.tick();
    expect(ran.slice(6)).toEqual(["x 4 #2"]);
    expect(await store.jobs.run({ name: "each-workspace", scope: "x", slot: T0 + 4 * HOUR_MS })).toMatchObject({
      state: "done",
      attempts: 2,
      claimedBy: "third",
    });
  });

  it("a `latest` job's workspace slot still waiting for a free run when the next hour begins is not run late: the new slot is", async () => {
    const store = await stores.open(kind);
    let t = T0 + MIN;
    const ran: string[] = [];
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const def: JobDefinition = {
      name: "one-at-a-time",
      slotOf: hourlySlot,
      catchUp: "latest",
      concurrency: 1,
      scopes: async () => ["p", "q"],
      run: async ({ scope, slot }) => {
        ran.push(`${scope} ${(slot - T0) / HOUR_MS}`);
        // The first run lasts past 10:00; the other workspace's 09:00 waits behind it.
        if (ran.length === 1) await slow;
      },
    };
    const s = scheduler(store, [def], () => t, "one");
    const first = s.tick();
    try {
      await vi.waitFor(() => expect(ran).toHaveLength(1));
      t = T0 + HOUR_MS + MIN;
    } finally {
      release();
    }
    await first;
    expect(ran).toHaveLength(1);
    const [slowOne] = ran[0]!.split(" ");
    const waited = slowOne === "p" ? "q" : "p";
    expect(await store.jobs.run({ name: "one-at-a-time", scope: waited, slot: T0 })).toBeUndefined();
    await s.tick();
    expect(ran.slice(1).sort()).toEqual(["p 1", "q 1"]);
  });

  it("housekeeping deletes finished runs, alert checks and sent alert events older than the kept days, and nothing else", async () => {
    const store = await stores.open(kind, { now: () => T0 });
    const day = 86_400_000;
    const now = T0 + 40 * day;
    await store.jobs.claim({ name: "old", slot: T0 }, "x", T0, T0 + MIN);
    await store.jobs.finish({ name: "old", slot: T0 }, "x", T0 + 1, "done", null);
    await store.jobs.claim({ name: "old", slot: T0 + HOUR_MS }, "x", T0, T0 + MIN);
    await store.jobs.finish({ name: "old", slot: T0 + HOUR_MS }, "x", T0 + 2, "failed", "boom");
    await store.jobs.claim({ name: "recent", slot: now - day }, "x", now - day, now - day + MIN);
    await store.jobs.finish({ name: "recent", slot: now - day }, "x", now - day, "done", null);
    await store.jobs.claim({ name: "stuck", slot: T0 }, "x", T0, T0 + MIN); // never finished: not housekeeping's to delete
    // Alerts: an old check and a recent one; an old event sent (goes), an old one still to send (stays).
    const ws = (await store.workspaces.workspaceForKey("svc_sk_test_housekeeping_1")).id;
    const destination = await store.alerts.createDestination(ws, { kind: "slack", name: "S", url: "https://hooks.example.com/x", urlHint: "…", secret: null });
    const rule = (await store.alerts.createRule(ws, { kind: "score_below", threshold: 50, destinationId: destination.id, cooldownMs: 0 }))!;
    await store.alerts.recordCheck(rule, { basis: "score:1", at: T0, state: "ok", value: 60, message: "old" }, null);
    await store.alerts.recordCheck(rule, { basis: "score:2", at: now - day, state: "ok", value: 60, message: "recent" }, null);
    const [sent] = (await store.alerts.enqueue(ws, { dedupeKey: "sent", type: "test", body: {} }, [destination.id]))!;
    const claimed = await store.alerts.claimNext(destination.id, "x", T0, T0 + MIN);
    expect(claimed).toMatchObject({ id: sent!.id, attempts: 1 });
    await store.alerts.finishAttempt(claimed!, "x", { at: T0, status: "delivered", responseStatus: 200, error: null, durationMs: 5, nextAttemptAt: null });
    await store.alerts.enqueue(ws, { dedupeKey: "waiting", type: "test", body: {} }, [destination.id]);
    const job = housekeepingJob(async () => store, { keepDays: 30, alertsKeepDays: 30 });
    expect(job.slotOf(now)).toBe(dailySlotAt(3)(now));
    expect(await job.run({ slot: job.slotOf(now), scope: "", attempt: 1, now: () => now, signal: new AbortController().signal })).toBe(
      "deleted 2 finished job runs older than 30 days, 1 alert checks and 1 sent alert events older than 30 days, 0 activity records older than 90 days",
    );
    expect((await store.alerts.checks(ws, rule.id)).map((c) => c.message)).toEqual(["recent"]);
    expect(await store.alerts.eventExists("sent")).toBe(false);
    expect(await store.alerts.eventExists("waiting")).toBe(true);
    expect(await store.jobs.runs("old")).toEqual([]);
    expect(await store.jobs.runs("recent")).toHaveLength(1);
    expect(await store.jobs.runs("stuck")).toHaveLength(1);
  });
});

describe.each(STORE_KINDS)("housekeeping of the activity (%s)", (kind) => {
  it("forgets every workspace's records older than 90 days, also where nothing was recorded since", async () => {
    const day = 86_400_000;
    let t = T0;
    const store = await stores.open(kind, { now: () => t });
    const [a, b] = [
      (await store.workspaces.workspaceForKey("svc_sk_test_housekeeping_a")).id,
      (await store.workspaces.workspaceForKey("svc_sk_test_housekeeping_b")).id,
    ];
    await store.activity.record(a, { keyHint: "svc_sk_test_…ng_a", action: "watching.started", subject: "" });
    await store.activity.record(b, { keyHint: "svc_sk_test_…ng_b", action: "watching.started", subject: "" });
    t = T0 + 60 * day;
    await store.activity.record(a, { keyHint: "svc_sk_test_…ng_a", action: "watching.stopped", subject: "" });
    const now = T0 + 100 * day;
    const summary = await housekeepingJob(async () => store, { keepDays: 30, alertsKeepDays: 90 }).run({
      slot: dailySlotAt(3)(now),
      scope: "",
      attempt: 1,
      now: () => now,
      signal: new AbortController().signal,
    });
    expect(summary).toMatch(/, 2 activity records older than 90 days$/);
    t = now;
    expect((await store.activity.list(a)).map((r) => r.action)).toEqual(["watching.stopped"]);
    expect(await store.activity.list(b)).toEqual([]);
  });
});

describe("the scheduler without a store", () => {
  it("skips its ticks, says so once, and runs when the store comes back", async () => {
    const lines: string[] = [];
    let available = false;
    const store = await stores.open("embedded");
    const ran: number[] = [];
    const s = createJobScheduler({
      jobs: async () => {
        if (!available) throw new Error("the embedded store in /srv/data is in use by process 4242");
        return store.jobs;
      },
      definitions: [{ name: "x", slotOf: hourlySlot, catchUp: "latest", run: async ({ slot }) => void ran.push(slot) }],
      now: () => T0,
      log: { info: (l) => lines.push(l), warn: (l) => lines.push(l) },
    });
    schedulers.push(s);
    await s.tick();
    await s.tick();
    expect(lines).toEqual([expect.stringMatching(/^\[jobs\] not running background jobs: the embedded store in \/srv\/data is in use by process 4242/)]);
    available = true;
    await s.tick();
    expect(ran).toEqual([T0]);
    expect(lines[1]).toMatch(/store is available/);
  });

  it("refuses two jobs of one name, and a lease shorter than three ticks", () => {
    const def: JobDefinition = { name: "same", slotOf: hourlySlot, catchUp: "latest", run: async () => {} };
    const jobs = async () => Promise.reject(new Error("unused"));
    expect(() => createJobScheduler({ jobs, definitions: [def, def] })).toThrow(/two jobs are named same/);
    expect(() => createJobScheduler({ jobs, definitions: [{ ...def, leaseMs: 60_000 }], tickMs: 30_000 })).toThrow(
      /lease of same must be at least three ticks \(90000 ms\)/,
    );
  });
});
