// A key's rate budget shared by every instance of the app through Redis: the same rules as the
// in-process RateBudget (lib/data-api/rate-budget.ts: rolling per-second and per-minute windows
// counting a request from its admission until its answer, the plan learned from X-RateLimit-Limit,
// a pause after a 429 and the burst halved by it (growing back slowly), pacing near Remaining 0, the
// interactive reserve), decided by one Lua script per admission (budget-lua.ts), so N instances
// together stay under the key's limit.
//
// Time: every decision takes `now` from the caller's clock (the server context's; fake in tests),
// so the windows hold times from several machines' clocks. A skew between them shifts an entry by
// the skew; the margins of the windows (100 ms on the second, 500 ms on the minute) absorb the few
// milliseconds NTP leaves. Machines whose clocks are off by more need NTP, not a wider margin.
//
// When Redis is away (not connected, or a command fails or takes longer than `commandTimeoutMs`),
// the budget falls back at once to a local RateBudget holding 1/N of the plan, N being the instances
// alive when Redis was last seen (instances.ts), and goes back to the shared one at the first
// admission after Redis answers again (tried at most every `retryMs` while it does not). Nothing of
// this throws: the scheduler never sees Redis. See `degrade` and `rejoin` for what each carries over.
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import {
  RateBudget,
  budgetWindows,
  interactiveReserve,
  pauseAfter429,
  type Admission,
  type BudgetPriority,
  type BudgetSnapshot,
  type KeyBudget,
  type RateBudgetOptions,
} from "@/lib/data-api/rate-budget";
import { DEFAULT_BUDGET, MAX_RETRY_AFTER_SECONDS, budgetForLimit, type PlanBudget, type RateLimitInfo } from "@/lib/data-api/rate-limit";
import { ADMIT_LUA, IMPORT_LUA, RECORD_LUA } from "./budget-lua";
import { withDeadline } from "./deadline";
import { readyClient, type InstanceHeartbeat, type RedisSource } from "./instances";
import { defineScript } from "./scripts";

export type SharedBudgetOptions = RateBudgetOptions & {
  redis: RedisSource;
  /** The key's id (lib/server/key-id.ts, a keyed hash): names its entries. Never the key itself. */
  keyId: string;
  /** Prefix of every key this app writes in Redis (REDIS_KEY_PREFIX); "" when the client adds one itself. */
  prefix?: string;
  /** This process's heartbeat: its id, and the live instances whose share is kept while Redis is away. */
  instances: Pick<InstanceHeartbeat, "id" | "liveInstances">;
  /**
   * How long an admitted request holds its place in flight if its instance never reports its
   * answer (it died). Longer than the longest attempt (DATA_API_TIMEOUT_MS) and event-loop stalls.
   */
  inFlightLeaseMs?: number;
  /** A Redis command slower than this counts as Redis being away (ms). */
  commandTimeoutMs?: number;
  /** While Redis is away, how often an admission tries it again (ms). */
  retryMs?: number;
  /**
   * Resolves once the client's first connection attempt has an outcome (RedisLink.settled): an
   * instance's first admissions wait for it instead of taking a local share only because Redis was
   * still connecting, which let a new instance and the others together go over the key's limit.
   */
  connected?: Promise<void>;
  /** Where switching to the local share and back is said (once per switch). */
  log?: (message: string) => void;
};

/** An admitted request, as this instance knows it. */
type Token = {
  /** Its entry in Redis: "<seq>:<instance>.<n>" (seq 0 when admitted by the local fallback). */
  member: string;
  /** Whether its entry is in Redis (under the current epoch). */
  inRedis: boolean;
  /** Its sequence number in the local fallback, while one holds it. */
  localSeq?: number;
  answeredAt?: number;
};

/** The shared state as the last reply from Redis told it (what snapshot() reports). */
type SharedView = {
  plan: PlanBudget;
  /** The per-second admission as the reply gave it (below the plan's for a while after a 429). */
  burst: number;
  learned: boolean;
  sentLastMinute: number;
  inFlight: number;
  serverResetAt: number;
  serverLeft: number;
  pausedUntil: number;
  lastInteractive: number;
  /** When that reply was (this instance's clock). */
  at: number;
};

type BudgetCommands = {
  waBudgetAdmit(...args: Array<string | number>): Promise<number[]>;
  waBudgetRecord(...args: Array<string | number>): Promise<number>;
  waBudgetImport(...args: Array<string | number>): Promise<string>;
};

const withCommands = new WeakMap<Redis, BudgetCommands>();

/** The budget's scripts on a client (ioredis: EVALSHA, EVAL when not loaded yet), made once per client. */
function commands(redis: Redis): BudgetCommands {
  let defined = withCommands.get(redis);
  if (!defined) {
    defined = {
      waBudgetAdmit: defineScript(redis, "waBudgetAdmit", 3, ADMIT_LUA),
      waBudgetRecord: defineScript(redis, "waBudgetRecord", 3, RECORD_LUA),
      waBudgetImport: defineScript(redis, "waBudgetImport", 3, IMPORT_LUA),
    } as BudgetCommands;
    withCommands.set(redis, defined);
  }
  return defined;
}

/** 1/N of the plan, at least one request per window. */
export function localShare(plan: PlanBudget, instances: number): PlanBudget {
  const n = Math.max(1, instances);
  return { perSecond: Math.max(1, Math.floor(plan.perSecond / n)), perMinute: Math.max(1, Math.floor(plan.perMinute / n)) };
}

const NO_RESERVE = { perSecond: 0, perMinute: 0 };
const STATE_TTL_MS = 3600_000;

class SharedBudget implements KeyBudget<Token> {
  private readonly keys: [string, string, string];
  private readonly configured: PlanBudget;
  private readonly fixed: boolean;
  private readonly windows: ReturnType<typeof budgetWindows>;
  private readonly leaseMs: number;
  private readonly timeoutMs: number;
  private readonly retryMs: number;
  private readonly windowsTtl: number;
  private readonly log: (message: string) => void;
  private view: SharedView;
  /** This instance's requests in flight or answered within the minute window: what a rejoin puts back. */
  private own = new Set<Token>();
  private count = 0;
  /** The state's epoch as last seen ("" = none yet). */
  private epoch = "";
  private lastInteractive = 0;
  /** The fallback while Redis is away (null while shared). */
  private local: RateBudget | null = null;
  private share: PlanBudget | null = null;
  private retryAt = 0;

  /** Whether `options.connected` has resolved (admissions no longer wait for it). */
  private connectedSettled = false;

  constructor(private readonly options: SharedBudgetOptions) {
    const tag = `${options.prefix ?? "wa:"}budget:{${options.keyId}}`;
    this.keys = [`${tag}:inflight`, `${tag}:answered`, `${tag}:state`];
    this.configured = options.budget ?? DEFAULT_BUDGET;
    this.fixed = options.fixed ?? false;
    this.windows = budgetWindows(options);
    this.leaseMs = options.inFlightLeaseMs ?? 30_000;
    this.timeoutMs = options.commandTimeoutMs ?? 250;
    this.retryMs = options.retryMs ?? 1000;
    this.windowsTtl = this.windows.minuteWindow + this.leaseMs + 60_000;
    this.log = options.log ?? ((message) => console.warn(message));
    this.view = {
      plan: this.configured,
      burst: this.configured.perSecond,
      learned: false,
      sentLastMinute: 0,
      inFlight: 0,
      serverResetAt: 0,
      serverLeft: 0,
      pausedUntil: 0,
      lastInteractive: 0,
      at: -Infinity,
    };
  }

  noteInteractive(now: number): void {
    this.lastInteractive = Math.max(this.lastInteractive, now);
    this.local?.noteInteractive(now);
  }

  async admit(now: number, priority: BudgetPriority): Promise<Admission<Token>> {
    if (this.options.connected && !this.connectedSettled) {
      await this.options.connected;
      this.connectedSettled = true;
      // Asked again at once, with the time it is then (`now` is from before the wait).
      return { admitted: false, waitMs: 0 };
    }
    this.pruneOwn(now);
    const redis = this.local && now < this.retryAt ? null : readyClient(this.options.redis);
    if (redis) {
      try {
        if (this.local) await this.rejoin(redis, now);
        const nonce = this.nonce();
        let reply = await this.admitShared(redis, now, priority, nonce);
        if (reply[0] === -1) {
          // A state this instance has not seen: Redis restarted, or the key is new here.
          await this.importOwn(redis, now);
          reply = await this.admitShared(redis, now, priority, nonce);
          if (reply[0] === -1) throw new Error("the budget's state changed twice during one admission");
        }
        if (reply[0]! > 0) return { admitted: false, waitMs: reply[0]! };
        const token: Token = { member: `${reply[1]}:${nonce}`, inRedis: true };
        this.own.add(token);
        return { admitted: true, token };
      } catch (error) {
        this.degrade(now, error);
      }
    } else if (!this.local) this.degrade(now, "not connected");
    return this.admitLocal(now, priority);
  }

  recordResponse(now: number, status: number, info: RateLimitInfo, token: Token): Promise<void> {
    return this.settle(now, token, status, info);
  }

  recordFailure(now: number, token: Token): Promise<void> {
    return this.settle(now, token, 0, {});
  }

  snapshot(now: number): BudgetSnapshot {
    const v = this.view;
    if (this.local && this.share) {
      return { ...this.local.snapshot(now), perSecond: v.plan.perSecond, perMinute: v.plan.perMinute, learned: v.learned, localShare: this.share };
    }
    const lastInteractive = Math.max(this.lastInteractive, v.lastInteractive);
    return {
      ...v.plan,
      burst: v.burst,
      learned: v.learned,
      // As of the last reply from Redis: other instances' requests since then are not in it.
      sentLastMinute: v.sentLastMinute,
      inFlight: v.inFlight,
      ...(v.serverResetAt > now ? { serverRemaining: v.serverLeft } : {}),
      ...(v.pausedUntil > now ? { pausedUntil: v.pausedUntil } : {}),
      reserved: now - lastInteractive < this.windows.interactiveWindow ? interactiveReserve({ perSecond: v.burst, perMinute: v.plan.perMinute }) : NO_RESERVE,
    };
  }

  private nonce(): string {
    return `${this.options.instances.id}.${++this.count}`;
  }

  private pruneOwn(now: number): void {
    for (const token of this.own) {
      if (token.answeredAt !== undefined && token.answeredAt <= now - this.windows.minuteWindow) this.own.delete(token);
    }
  }

  private async admitShared(redis: Redis, now: number, priority: BudgetPriority, nonce: string): Promise<number[]> {
    const { secondWindow, minuteWindow, interactiveWindow, burstRecovery } = this.windows;
    const pending = commands(redis).waBudgetAdmit(
      ...this.keys,
      now,
      priority === "bulk" ? 1 : 0,
      this.configured.perSecond,
      this.configured.perMinute,
      this.fixed ? 1 : 0,
      secondWindow,
      minuteWindow,
      interactiveWindow,
      this.lastInteractive,
      this.leaseMs,
      nonce,
      this.epoch,
      this.windowsTtl,
      STATE_TTL_MS,
      MAX_RETRY_AFTER_SECONDS * 1000,
      burstRecovery,
    );
    // A reply that comes after the deadline may have admitted a request nobody will send: give it back.
    const reply = await withDeadline(pending, this.timeoutMs, (late) => {
      if (late[0] === 0) void this.record(redis, `${late[1]}:${nonce}`, now, "release", 0, {}).catch(() => undefined);
    });
    if (reply[0] !== -1) this.learnFrom(reply, now);
    return reply;
  }

  /** Keeps what an admission's reply says of the shared state, for snapshot() and a fallback. */
  private learnFrom(reply: number[], now: number): void {
    const at = (i: number) => reply[i] ?? 0;
    // A plan this instance learned that Redis has not heard of yet (its record was lost) stays.
    const sharedPlan = at(4) === 1 || !this.view.learned;
    const plan = sharedPlan ? { perSecond: at(2), perMinute: at(3) } : this.view.plan;
    this.view = {
      plan,
      // A burst cut by a 429 holds whichever plan this instance keeps to.
      burst: at(11) < at(2) ? Math.min(at(11), plan.perSecond) : plan.perSecond,
      learned: at(4) === 1 || this.view.learned,
      sentLastMinute: at(5),
      inFlight: at(6),
      serverResetAt: at(7),
      serverLeft: at(8),
      pausedUntil: at(9),
      lastInteractive: at(10),
      at: now,
    };
  }

  private record(redis: Redis, member: string, now: number, kind: "answer" | "release", status: number, info: RateLimitInfo): Promise<number> {
    const plan = !this.fixed && info.limit !== undefined ? budgetForLimit(info.limit) : undefined;
    return withDeadline(
      commands(redis).waBudgetRecord(
        ...this.keys,
        member,
        now,
        kind,
        plan?.perSecond ?? 0,
        plan?.perMinute ?? 0,
        info.remaining ?? -1,
        info.resetAt ?? 0,
        status === 429 ? pauseAfter429(now, info) : 0,
        this.epoch,
        this.windowsTtl,
        STATE_TTL_MS,
        this.configured.perSecond,
        this.fixed ? 1 : 0,
        this.windows.burstRecovery,
      ),
      this.timeoutMs,
    );
  }

  /** The answer (or failure, status 0) of an admitted request. Never rejects. */
  private async settle(now: number, token: Token, status: number, info: RateLimitInfo): Promise<void> {
    if (token.answeredAt !== undefined) return;
    // Found away now: the fallback takes over before the answer, so that it holds this one in flight.
    const redis = this.local || !token.inRedis ? null : readyClient(this.options.redis);
    if (!this.local && token.inRedis && !redis) this.degrade(now, "not connected");
    token.answeredAt = now;
    // What this instance learns it knows at once (the sign-in reads the plan right after its check),
    // whether or not Redis hears of it.
    if (!this.fixed && info.limit !== undefined) this.view = { ...this.view, plan: budgetForLimit(info.limit), learned: true };
    if (status === 429) this.view = { ...this.view, pausedUntil: Math.max(this.view.pausedUntil, pauseAfter429(now, info)) };
    if (this.local && token.localSeq !== undefined) {
      if (status === 0) this.local.recordFailure(now, token.localSeq);
      else this.local.recordResponse(now, status, info, token.localSeq);
    }
    // While away, nothing is sent: the rejoin puts the answer in its place.
    if (!redis) return;
    try {
      await this.record(redis, token.member, now, "answer", status, info);
    } catch (error) {
      this.degrade(now, error);
    }
  }

  /**
   * Redis is away: from now on this instance keeps to 1/N of the plan on its own. The local budget
   * starts with what is known of the last minute, so that the switch cannot send a second minute's
   * worth on top of the first: the key's requests as the last reply counted them, placed at that
   * reply's time (no earlier than they were: they leave the windows no sooner than they should), with
   * this instance's requests still in flight as in flight, and the shared pause.
   * What it cannot know: other instances' requests after that reply. Right after the switch the key
   * may see up to one share more than its limit in the worst case, which the 429 handling covers.
   */
  private degrade(now: number, reason: unknown): void {
    this.retryAt = now + this.retryMs;
    if (this.local) return;
    const v = this.view;
    const instances = this.options.instances.liveInstances();
    // Of the burst as last seen: a 429 that cut it for every instance is not forgotten by the switch.
    const share = localShare({ perSecond: Math.min(v.burst, v.plan.perSecond), perMinute: v.plan.perMinute }, instances);
    const { secondMarginMs, minuteMarginMs, interactiveWindowMs, burstRecoveryMs } = this.options;
    const local = new RateBudget({ budget: share, fixed: true, secondMarginMs, minuteMarginMs, interactiveWindowMs, burstRecoveryMs });
    local.noteInteractive(Math.max(this.lastInteractive, v.lastInteractive));
    // This instance's requests that the last reply counted in flight: those answered since then at
    // their answer's time, the others as still in flight. The rest of that count at the reply's time.
    const inFlight = [...this.own].filter((t) => t.answeredAt === undefined);
    const answeredSince = [...this.own].filter((t) => t.answeredAt !== undefined && t.answeredAt > v.at);
    const recent = v.at > now - this.windows.minuteWindow;
    const others = recent ? Math.max(0, v.sentLastMinute - inFlight.length - answeredSince.length) : 0;
    for (let i = 0; i < others; i++) local.recordResponse(v.at, 200, {}, local.recordSend(v.at));
    for (const token of answeredSince) local.recordResponse(token.answeredAt!, 200, {}, local.recordSend(token.answeredAt!));
    for (const token of inFlight) token.localSeq = local.recordSend(now);
    if (v.pausedUntil > now) local.recordResponse(now, 429, { resetAt: v.pausedUntil }, local.recordSend(now));
    this.local = local;
    this.share = share;
    const why = reason instanceof Error ? reason.message : String(reason);
    this.log(
      `[redis] shared rate budget unavailable (${why}): this instance keeps to ${share.perSecond}/s and ${share.perMinute}/min, 1/${instances} of the key's plan, until Redis answers again`,
    );
  }

  /** Redis answers again: put back this instance's last minute (so the shared windows hold it), then share again. */
  private async rejoin(redis: Redis, now: number): Promise<void> {
    await this.importOwn(redis, now);
    this.local = null;
    this.share = null;
    for (const token of this.own) token.localSeq = undefined;
    this.log("[redis] shared rate budget available again: back to the key's shared budget");
  }

  /**
   * Puts this instance's requests of the last minute (answered ones at their answer's time, those
   * in flight as in flight), its learned plan, the pause and its last interactive use into Redis.
   * Idempotent: each request keeps one member, so what Redis still holds is not counted twice.
   */
  private async importOwn(redis: Redis, now: number): Promise<void> {
    const entries: Array<string | number> = [];
    const inFlight: Token[] = [];
    for (const token of this.own) {
      if (token.answeredAt !== undefined) {
        entries.push("a", token.answeredAt, token.member);
      } else {
        entries.push("f", now + this.leaseMs, token.member);
        inFlight.push(token);
      }
    }
    const pausedUntil = Math.max(this.view.pausedUntil, this.local?.snapshot(now).pausedUntil ?? 0);
    const learned = this.view.learned && !this.fixed ? this.view.plan : undefined;
    const fresh = randomBytes(9).toString("base64url");
    this.epoch = await withDeadline(
      commands(redis).waBudgetImport(
        ...this.keys,
        now,
        fresh,
        this.windows.minuteWindow,
        learned?.perSecond ?? 0,
        learned?.perMinute ?? 0,
        pausedUntil > now ? pausedUntil : 0,
        Math.max(this.lastInteractive, this.view.lastInteractive),
        this.windowsTtl,
        STATE_TTL_MS,
        ...entries,
      ),
      this.timeoutMs,
    );
    for (const token of this.own) token.inRedis = true;
    // Answered while the import was on its way: their answer did not reach Redis (or came before it).
    for (const token of inFlight) {
      if (token.answeredAt !== undefined) void this.record(redis, token.member, token.answeredAt, "answer", 0, {}).catch(() => undefined);
    }
  }

  private admitLocal(now: number, priority: BudgetPriority): Admission<Token> {
    const admitted = this.local!.admit(now, priority);
    if (!admitted.admitted) return admitted;
    const token: Token = { member: `0:${this.nonce()}`, inRedis: false, localSeq: admitted.token };
    this.own.add(token);
    return { admitted: true, token };
  }
}

/**
 * The budget of one key shared through Redis (see the top of this file). `instances` is the
 * process's heartbeat (instances.ts); the scheduler takes the result as its `keyBudget`.
 */
export function createSharedBudget(options: SharedBudgetOptions): KeyBudget {
  return new SharedBudget(options);
}
