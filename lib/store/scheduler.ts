// The background jobs' scheduler, one in every instance. Jobs are declared in code: a name, the slot
// a moment falls in (the hour's start for an hourly job), what to do after a downtime, and the work.
// Every tick, each job's due slots are claimed in the store (jobs.ts): the one instance whose claim
// makes the slot's row runs it, so a slot runs once across instances. While a run goes on, each tick
// of its instance renews its lease; a run whose lease ran out (its instance died or stalled) is taken
// over by another instance, up to `maxAttempts` tries in all. After a downtime a job runs only its
// latest due slot (`catchUp: "latest"`: a snapshot of now is worth more than one of then) or each
// slot missed since the last one it ran (`"each"`, at most `maxCatchUp`). A job with `scopes` (one
// run per workspace) has a slot per scope: each is claimed just before it runs, by whichever instance
// gets to it first, at most `concurrency` at once per instance, so instances share the workspaces and
// one slow workspace holds back none of the others. The clock is injected and everything happens in
// `tick()`, which tests drive by hand on fake time; the timer loop only calls `tick()` every `tickMs`.
import "server-only";
import { randomBytes } from "node:crypto";
import type { Jobs, SlotKey } from "./jobs";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Slots of an hourly job: the start of the hour (UTC, as every hour starts at once everywhere that matters here). */
export const hourlySlot = (t: number): number => Math.floor(t / HOUR_MS) * HOUR_MS;

/** Slots of a daily job run at `hour`:00 UTC: the latest such moment at or before `t`. */
export const dailySlotAt =
  (hour: number) =>
  (t: number): number =>
    Math.floor((t - hour * HOUR_MS) / DAY_MS) * DAY_MS + hour * HOUR_MS;

export type SlotRun = {
  /** The slot's start (epoch ms). */
  slot: number;
  /** What the run is for: one of the job's `scopes` (a workspace id), or '' for a job of the whole deployment. */
  scope: string;
  /** 1 for the first try, more when a run whose instance died is taken over. */
  attempt: number;
  now: () => number;
  /** Aborted when the lease is lost (another instance took the run over) or the scheduler stops. */
  signal: AbortSignal;
};

export type JobDefinition = {
  /** Unique among the jobs; the rows in `jobs` carry it. */
  name: string;
  /** The start of the slot `t` falls in: non-decreasing, and `slotOf(slotOf(t)) === slotOf(t)`. */
  slotOf: (t: number) => number;
  catchUp: "latest" | "each";
  /** With catchUp "each": the most missed slots run after a downtime (default 24). */
  maxCatchUp?: number;
  /**
   * How long a run holds its slot without renewing (default 5 min): every tick renews it, so it must be
   * several ticks long; past it, another instance takes the run over.
   */
  leaseMs?: number;
  /** Tries of one slot in all, counting takeovers (default 3). */
  maxAttempts?: number;
  /**
   * A job run once per scope (e.g. per watched workspace): what to run for at `now`. Each scope's
   * slot is its own row, claimed just before its run; default: one run for the whole deployment.
   */
  scopes?: (now: number) => Promise<string[]>;
  /** With `scopes`: the most runs of the job at once in this instance (default 4). */
  concurrency?: number;
  /** The work. What it returns (a short summary) is kept as the run's outcome; a throw fails the run. */
  run: (slot: SlotRun) => Promise<string | void>;
};

export type SchedulerLog = { info(line: string): void; warn(line: string): void };

export type SchedulerOptions = {
  /** The store's jobs, when it can be opened (a rejection: the tick is skipped, and said once). */
  jobs: () => Promise<Jobs>;
  definitions: JobDefinition[];
  now?: () => number;
  /** Who claims: unique per process (default: random, with the pid). */
  instance?: string;
  /** Between two ticks (default 30 s): how late a slot may start, and how often leases are renewed. */
  tickMs?: number;
  log?: SchedulerLog;
};

export type JobScheduler = {
  readonly instance: string;
  /**
   * One pass: claims every due slot (and expired runs to take over) and runs what it claimed.
   * Resolves when those runs have ended. A job whose previous runs are still going in this process
   * is skipped.
   */
  tick(): Promise<void>;
  /** Ticks now and then every `tickMs`, until stopped. */
  start(): void;
  /**
   * Stops ticking and aborts this process's runs, leaving their rows to be taken over after the
   * lease (as if the instance had died); resolves when they have returned.
   */
  stop(): Promise<void>;
};

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_MAX_CATCH_UP = 24;
/** Between two ticks (JOBS_TICK_MS in the server). */
export const DEFAULT_TICK_MS = 30_000;
const DEFAULT_CONCURRENCY = 4;

export function newInstanceId(): string {
  return `${randomBytes(4).toString("hex")}.${process.pid}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** A run as the log names it: the job, its scope when it has one, and the slot. */
function describeKey(key: SlotKey): string {
  return `${key.name}${key.scope ? ` ${key.scope}` : ""} ${new Date(key.slot).toISOString()}`;
}

/** A slot of a job run per scope, waiting in this process for its turn; `takeOverFrom`: the run whose lease ran out. */
type ScopedItem = { scope: string; slot: number; takeOverFrom?: { claimedBy: string; attempts: number }; done?: () => void };

export function createJobScheduler(options: SchedulerOptions): JobScheduler {
  const now = options.now ?? (() => Date.now());
  const instance = options.instance ?? newInstanceId();
  const tickMs = options.tickMs ?? DEFAULT_TICK_MS;
  const log = options.log ?? { info: (line: string) => console.info(line), warn: (line: string) => console.warn(line) };
  const names = new Set<string>();
  for (const def of options.definitions) {
    if (names.has(def.name)) throw new Error(`two jobs are named ${def.name}`);
    names.add(def.name);
    // Renewed once a tick: a lease of fewer than three ticks would be lost to one slow tick.
    if ((def.leaseMs ?? DEFAULT_LEASE_MS) < 3 * tickMs) throw new Error(`the lease of ${def.name} must be at least three ticks (${3 * tickMs} ms)`);
  }

  /** Jobs with runs going in this process, and how to abort them. */
  const busy = new Map<string, AbortController>();
  /**
   * Per job run per scope: the scopes' slots waiting in this process for a free run (claimed only
   * when their turn comes), how many runs go on, and every slot waiting or going on (not queued twice).
   */
  const pools = new Map<string, { queue: ScopedItem[]; active: Set<string>; workers: number }>();
  /** The runs going in this process, by job, scope and slot: the leases each tick renews. */
  const running = new Map<string, { key: SlotKey; leaseMs: number; controller: AbortController }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let unavailableSaid = false;
  const inFlight = new Set<Promise<void>>();

  /** The slots of `def` to claim now, oldest first, after `last` (the latest ever claimed, or null). */
  function slotsAfter(def: JobDefinition, t: number, last: number | null): number[] {
    const current = def.slotOf(t);
    if (def.catchUp === "latest") return [current];
    if (last === null || last >= current) return [current];
    const slots: number[] = [];
    for (let s = current; s > last && slots.length < (def.maxCatchUp ?? DEFAULT_MAX_CATCH_UP); s = def.slotOf(s - 1)) slots.unshift(s);
    return slots;
  }

  /** The slots of `def` to claim now, oldest first. */
  async function dueSlots(jobs: Jobs, def: JobDefinition, t: number): Promise<number[]> {
    return slotsAfter(def, t, def.catchUp === "latest" ? null : await jobs.latestSlot(def.name));
  }

  async function runSlot(jobs: Jobs, def: JobDefinition, key: SlotKey, attempt: number, controller: AbortController): Promise<void> {
    const id = `${key.name}|${key.scope ?? ""}|${key.slot}`;
    running.set(id, { key, leaseMs: def.leaseMs ?? DEFAULT_LEASE_MS, controller });
    try {
      let state: "done" | "failed" = "done";
      let outcome: string | null = null;
      try {
        outcome = (await def.run({ slot: key.slot, scope: key.scope ?? "", attempt, now, signal: controller.signal })) ?? null;
      } catch (error) {
        state = "failed";
        outcome = describeError(error);
      }
      // Stopped or taken over: the row is left for whoever holds it (or takes it over) to finish.
      if (controller.signal.aborted) return;
      await jobs.finish(key, instance, now(), state, outcome);
      if (state === "failed") log.warn(`[jobs] ${describeKey(key)} failed: ${outcome}`);
    } finally {
      running.delete(id);
    }
  }

  /**
   * Renews the lease of every run going on in this process (each tick: a lease is many ticks long),
   * and stops one whose lease another instance took over meanwhile.
   */
  async function renewLeases(jobs: Jobs): Promise<void> {
    await Promise.all(
      [...running.values()].map(async ({ key, leaseMs, controller }) => {
        try {
          if (await jobs.renew(key, instance, now() + leaseMs)) return;
          if (controller.signal.aborted) return;
          log.warn(`[jobs] ${describeKey(key)}: the run was taken over by another instance; stopping it here`);
          controller.abort(new Error("lease lost: another instance took the run over"));
        } catch (error) {
          log.warn(`[jobs] ${key.name}: could not renew the lease: ${describeError(error)}`);
        }
      }),
    );
  }

  /** Closes the runs of `def` that died and will not be tried again, saying why, so they do not read as running. */
  async function abandonDead(jobs: Jobs, def: JobDefinition, t: number): Promise<void> {
    const maxAttempts = def.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    await jobs.abandon(def.name, t, `abandoned: its instance stopped renewing the lease ${maxAttempts} times`, { maxAttempts });
    if (def.catchUp === "latest")
      await jobs.abandon(def.name, t, "abandoned: its instance stopped renewing the lease, and a later slot is due", { before: def.slotOf(t) });
  }

  /**
   * One scope's slot, when its turn comes in this process: claimed (or taken over) now, then run. A
   * slot of a `latest` job that a later slot replaced while it waited is dropped (its scope's new
   * slot is queued by the tick that saw it due).
   */
  async function runScoped(jobs: Jobs, def: JobDefinition, item: ScopedItem): Promise<void> {
    const t = now();
    if (stopped) return;
    if (def.catchUp === "latest" && def.slotOf(t) !== item.slot) return;
    const leaseMs = def.leaseMs ?? DEFAULT_LEASE_MS;
    const key = { name: def.name, scope: item.scope, slot: item.slot };
    let attempt = 1;
    if (item.takeOverFrom) {
      if (!(await jobs.takeOver(key, instance, t, t + leaseMs, def.maxAttempts ?? DEFAULT_MAX_ATTEMPTS))) return;
      attempt = item.takeOverFrom.attempts + 1;
      log.info(`[jobs] ${describeKey(key)}: taking over the run of ${item.takeOverFrom.claimedBy} (attempt ${attempt})`);
    } else if (!(await jobs.claim(key, instance, t, t + leaseMs))) return;
    await runSlot(jobs, def, key, attempt, new AbortController());
  }

  /** Queues `items` of a job run per scope and makes sure its runs go on; resolves when these items are done. */
  function enqueueScoped(jobs: Jobs, def: JobDefinition, items: ScopedItem[]): Promise<void> {
    let pool = pools.get(def.name);
    if (!pool) pools.set(def.name, (pool = { queue: [], active: new Set(), workers: 0 }));
    const p = pool;
    const waits: Promise<void>[] = [];
    for (const item of items) {
      const id = `${item.scope}|${item.slot}`;
      if (p.active.has(id)) continue;
      p.active.add(id);
      waits.push(new Promise<void>((resolve) => p.queue.push({ ...item, done: () => (p.active.delete(id), resolve()) })));
    }
    const worker = async () => {
      p.workers++;
      try {
        for (let item = p.queue.shift(); item; item = p.queue.shift()) {
          try {
            await runScoped(jobs, def, item);
          } catch (error) {
            log.warn(`[jobs] ${def.name} ${item.scope}: ${describeError(error)}`);
          } finally {
            item.done?.();
          }
        }
      } finally {
        p.workers--;
      }
    };
    // Each new worker takes a queued slot at once; busy ones take the next when their run ends.
    while (p.workers < (def.concurrency ?? DEFAULT_CONCURRENCY) && p.queue.length > 0) void worker();
    return Promise.all(waits).then(() => undefined);
  }

  /** A tick of a job run per scope: every scope's due slots not claimed yet, and runs to take over, queued. */
  async function tickScopedJob(jobs: Jobs, def: JobDefinition, scopesOf: (now: number) => Promise<string[]>): Promise<void> {
    const t = now();
    await abandonDead(jobs, def, t);
    const scopes = await scopesOf(t);
    const current = def.slotOf(t);
    // Claimed rows are skipped here rather than at their claim: one read instead of an insert per scope.
    const claimed = await jobs.claimedScopes(def.name, current);
    const latest = def.catchUp === "each" ? await jobs.latestSlots(def.name) : new Map<string, number>();
    const items: ScopedItem[] = [];
    for (const scope of scopes) {
      for (const slot of slotsAfter(def, t, latest.get(scope) ?? null)) if (slot !== current || !claimed.has(scope)) items.push({ scope, slot });
    }
    for (const run of await jobs.expired(def.name, t)) items.push({ scope: run.scope, slot: run.slot, takeOverFrom: run });
    // In an order of its own: instances ticking together then mostly claim different scopes first.
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    await enqueueScoped(jobs, def, items);
  }

  async function tickJob(jobs: Jobs, def: JobDefinition): Promise<void> {
    if (def.scopes) return tickScopedJob(jobs, def, def.scopes);
    const t = now();
    const leaseMs = def.leaseMs ?? DEFAULT_LEASE_MS;
    const maxAttempts = def.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    await abandonDead(jobs, def, t);

    const claimed: { key: SlotKey; attempt: number }[] = [];
    for (const slot of await dueSlots(jobs, def, t)) {
      const key = { name: def.name, slot };
      if (await jobs.claim(key, instance, t, t + leaseMs)) claimed.push({ key, attempt: 1 });
    }
    for (const run of await jobs.expired(def.name, t)) {
      const key = { name: def.name, scope: run.scope, slot: run.slot };
      if (await jobs.takeOver(key, instance, t, t + leaseMs, maxAttempts)) {
        log.info(`[jobs] ${describeKey(key)}: taking over the run of ${run.claimedBy} (attempt ${run.attempts + 1})`);
        claimed.push({ key, attempt: run.attempts + 1 });
      }
    }
    if (claimed.length === 0) return;
    const controller = new AbortController();
    busy.set(def.name, controller);
    try {
      for (const { key, attempt } of claimed.sort((a, b) => a.key.slot - b.key.slot)) {
        if (controller.signal.aborted) break;
        await runSlot(jobs, def, key, attempt, controller);
      }
    } finally {
      busy.delete(def.name);
    }
  }

  async function tickOnce(): Promise<void> {
    let jobs: Jobs;
    try {
      jobs = await options.jobs();
    } catch (error) {
      if (!unavailableSaid) log.warn(`[jobs] not running background jobs: ${describeError(error)} (trying again every ${Math.round(tickMs / 1000)} s)`);
      unavailableSaid = true;
      return;
    }
    if (unavailableSaid) log.info("[jobs] the store is available: running background jobs");
    unavailableSaid = false;
    await renewLeases(jobs);
    await Promise.all(
      options.definitions
        // A job run per scope is never skipped: its scopes queue, each slot at most once.
        .filter((def) => (def.scopes !== undefined || !busy.has(def.name)) && !stopped)
        .map((def) => tickJob(jobs, def).catch((error: unknown) => log.warn(`[jobs] ${def.name}: ${describeError(error)}`))),
    );
  }

  /** Every tick is tracked, by hand or by the loop, so stop() waits for its runs. */
  function tick(): Promise<void> {
    const promise = tickOnce();
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
    return promise;
  }

  function loop(): void {
    if (stopped) return;
    void tick();
    timer = setTimeout(loop, tickMs);
    timer.unref?.();
  }

  return {
    instance,
    tick,
    start() {
      if (timer !== undefined || stopped) return;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      for (const controller of busy.values()) controller.abort(new Error("the scheduler stopped"));
      for (const run of running.values()) run.controller.abort(new Error("the scheduler stopped"));
      for (const pool of pools.values()) for (const item of pool.queue.splice(0)) item.done?.();
      await Promise.allSettled([...inFlight]);
    },
  };
}
