// The listing pipeline (listing.ts) on its own, over a list whose pages this file serves itself (a
// made-up resource, not the Data API: the pipeline takes any ListedResource), so each page can be held
// back, failed or made to claim any total: a total over the cap is refused on the first page with no
// offset planned; offsets are made one at a time as the bounded pool pulls them (16 at most asked for,
// whatever the total promises); pages are folded as they arrive; a row seen twice is folded once and
// makes the listing inexact, as do more rows than the total (which stops it); an abort or the first
// failure stops it with nothing more asked for; a strict summariser stops at its first unfit row;
// a day the zone skipped is never asked for. The visitor and mention summarisers over the sandbox are
// in insights.integration.test.ts and listing-bounds.test.ts.
import { describe, expect, it } from "vitest";
import type { DataApi } from "@/lib/data-api/api";
import { MemoryCacheStore, SingleFlight } from "@/lib/data-api/cache";
import type { ListEnvelope } from "@/lib/data-api/schemas";
import type { InsightsContext } from "./context";
import { eachBounded, listDays, listDaysInto, UPSTREAM_CONCURRENCY, type DaySummariser, type ListedResource } from "./listing";
import type { DaySpan } from "./range";

type Row = { id: string; at?: string };
type Query = { from: string; to: string; limit: number; offset: number };

const DAY_MS = 86_400_000;
const START = Date.parse("2026-11-01T00:00:00Z");
/** Three UTC days from 1 Nov 2026. */
const SPAN: DaySpan = {
  startMs: START,
  endMs: START + 3 * DAY_MS,
  days: [0, 1, 2].map((i) => ({ date: `2026-11-0${i + 1}`, startMs: START + i * DAY_MS, endMs: START + (i + 1) * DAY_MS })),
};

/** Row `n` of a listing: in day n % 3 of SPAN. */
const row = (n: number): Row => ({ id: `r${n}`, at: new Date(START + (n % 3) * DAY_MS + 1000).toISOString() });

/** A page of 100 rows from `offset`, of a list `total` long, claiming `claimed` (default: the total). */
function page(offset: number, total: number, claimed = total): ListEnvelope<Row> {
  const data: Row[] = [];
  for (let n = offset; n < Math.min(total, offset + 100); n++) data.push(row(n));
  return { data, meta: { total: claimed, limit: 100, offset } };
}

type Served = { calls: Query[]; inFlight: number; maxInFlight: number };

/** A resource whose pages `serve` answers, counting the calls and those in flight. */
function resource(serve: (q: Query, signal: AbortSignal | undefined) => Promise<ListEnvelope<Row>>): ListedResource<Row> & { served: Served } {
  const served: Served = { calls: [], inFlight: 0, maxInFlight: 0 };
  return {
    noun: "rows",
    served,
    placedAt: (r) => r.at,
    checks: [{ name: "rows", holds: () => true }],
    // The pipeline never counts (only a kept day's check does, lib/insights/kept.ts).
    count: () => Promise.reject(new Error("not counted here")),
    page: async (_api, q, options) => {
      served.calls.push(q);
      served.maxInFlight = Math.max(served.maxInFlight, ++served.inFlight);
      try {
        return await serve(q, options.signal);
      } finally {
        served.inFlight--;
      }
    },
  };
}

/** Rows per day, by id; lenient unless `strict`. */
function perDay(res: ListedResource<Row>, strict = false): DaySummariser<Row, string[]> {
  return { resource: res, strict, empty: () => [], add: (day, r) => (day.push(r.id), true), finish: (day) => day };
}

function context(signal?: AbortSignal, maxListedRows = 100_000): InsightsContext {
  return {
    api: {} as DataApi,
    store: new MemoryCacheStore(),
    state: { plans: new Map(), listings: new Map(), flights: new SingleFlight() },
    policy: { strategy: "auto", gatherMs: 0 },
    now: () => START,
    ttl: { closedMs: 1, openMs: 1 },
    ttlFor: () => 1,
    maxListedRows,
    signal,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** Resolves when released, or rejects when its signal aborts (as the client does). */
function held(signal: AbortSignal | undefined): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve, reject) => {
    release = resolve;
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  return { promise, release };
}

describe("listDays", () => {
  it("refuses a total over the cap on its first page: nothing else is asked for or planned", async () => {
    const res = resource(async (q) => page(q.offset, 300, 1e11));
    const started = performance.now();
    const read = await listDays(context(undefined, 100_000), SPAN, perDay(res));
    expect(read).toEqual({ kind: "too_large", total: 1e11, max: 100_000 });
    expect(res.served.calls.map((q) => q.offset)).toEqual([0]);
    // The old listing made an array of a billion offsets here before its first call.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("makes offsets as the pool pulls them: never more than 16 pages asked for at once, every page once, folded as each arrives", async () => {
    const total = 5000;
    const waiting: Array<() => void> = [];
    const res = resource(async (q) => {
      if (q.offset > 0) await new Promise<void>((r) => waiting.push(r));
      return page(q.offset, total);
    });
    const summariser = perDay(res);
    const folded: number[] = [];
    const counting: DaySummariser<Row, string[]> = { ...summariser, add: (day, r) => (folded.push(1), summariser.add(day, r)) };
    const listing = listDays(context(), SPAN, counting);
    for (let round = 0; round < 100 && res.served.calls.length < total / 100; round++) {
      await tick();
      // Only what the pool asked for exists: the offsets are not made ahead of it.
      expect(res.served.inFlight).toBeLessThanOrEqual(UPSTREAM_CONCURRENCY);
      const before = folded.length;
      waiting.splice(0, 3).forEach((release) => release());
      await tick();
      // Rows are folded while later pages are still to come.
      if (res.served.calls.length < total / 100) expect(folded.length).toBeGreaterThan(before);
    }
    while (waiting.length > 0) {
      waiting.splice(0).forEach((release) => release());
      await tick();
    }
    const read = await listing;
    expect(res.served.maxInFlight).toBe(UPSTREAM_CONCURRENCY);
    expect(res.served.calls.map((q) => q.offset).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i * 100));
    expect(read.kind === "summed" && read.exact).toBe(true);
    if (read.kind !== "summed") return;
    expect(read.days.map((d) => d.length)).toEqual([1667, 1667, 1666]);
    expect(read.days[0]!.slice(0, 3)).toEqual(["r0", "r3", "r6"]);
  });

  it("folds a row seen twice once, and says the listing is not exact (one row was missed for it)", async () => {
    // The second page starts one row early: r99 twice, r199 never.
    const res = resource(async (q) => (q.offset === 100 ? page(99, 300, 300) : page(q.offset, 300)));
    const read = await listDays(context(), SPAN, perDay(res));
    expect(read.kind).toBe("summed");
    if (read.kind !== "summed") return;
    expect(read.exact).toBe(false);
    expect(read.days.flat()).toHaveLength(299);
    expect(read.days.flat().filter((id) => id === "r99")).toHaveLength(1);
  });

  it("stops once more rows arrive than the total claims (the ids it keeps stay bounded by the total)", async () => {
    // Claims 150 but every page is full: the third page would already be past the claim.
    const res = resource(async (q) => ({ ...page(q.offset, 100_000), meta: { total: 150, limit: 100, offset: q.offset } }));
    const read = await listDays(context(), SPAN, perDay(res));
    expect(read.kind === "summed" && read.exact).toBe(false);
    expect(res.served.calls.length).toBe(2);
  });

  it("stops at once when its signal aborts: the calls in flight see it, and nothing more is asked for", async () => {
    const abort = new AbortController();
    const signals: Array<AbortSignal | undefined> = [];
    const res = resource(async (q, signal) => {
      if (q.offset > 0) {
        signals.push(signal);
        await held(signal).promise;
      }
      return page(q.offset, 100_000);
    });
    const listing = listDays(context(abort.signal), SPAN, perDay(res));
    await tick();
    await tick();
    expect(res.served.calls).toHaveLength(1 + UPSTREAM_CONCURRENCY);
    abort.abort(new DOMException("The request was cancelled.", "AbortError"));
    await expect(listing).rejects.toThrow("cancelled");
    await tick();
    expect(res.served.calls).toHaveLength(1 + UPSTREAM_CONCURRENCY);
    expect(signals.every((s) => s?.aborted)).toBe(true);
  });

  it("stops at the first failure: pages not yet asked for never are, and those in flight are aborted", async () => {
    const signals: Array<AbortSignal | undefined> = [];
    const res = resource(async (q, signal) => {
      if (q.offset === 500) throw new Error("upstream failed");
      if (q.offset > 0) {
        signals.push(signal);
        await held(signal).promise;
      }
      return page(q.offset, 100_000);
    });
    await expect(listDays(context(), SPAN, perDay(res))).rejects.toThrow("upstream failed");
    await tick();
    expect(res.served.calls).toHaveLength(1 + UPSTREAM_CONCURRENCY);
    expect(signals.every((s) => s?.aborted)).toBe(true);
  });

  it("a strict summariser stops at its first row that fits no day; a lenient one counts it as unplaced", async () => {
    const odd = async (q: Query) => {
      const p = page(q.offset, 1000);
      if (q.offset === 0) p.data[5] = { id: "no-time" };
      return p;
    };
    const strict = resource(odd);
    expect(await listDays(context(), SPAN, perDay(strict, true))).toEqual({ kind: "unsummable" });
    expect(strict.served.calls).toHaveLength(1);
    const lenient = resource(odd);
    const read = await listDays(context(), SPAN, perDay(lenient));
    expect(read).toMatchObject({ kind: "summed", unplaced: 1, exact: true });
    expect(lenient.served.calls).toHaveLength(10);
  });

  it("one read folds every summariser: a strict one met by an odd row is dropped alone, the lenient ones read on", async () => {
    const res = resource(async (q) => {
      const p = page(q.offset, 1000);
      if (q.offset === 300) p.data[7] = { id: "no-time" };
      return p;
    });
    const read = await listDaysInto(context(), SPAN, [perDay(res, true), perDay(res), perDay(res)]);
    expect(res.served.calls).toHaveLength(10);
    if (read.kind !== "summed") throw new Error(read.kind);
    expect(read.exact).toBe(true);
    expect(read.per[0]).toBeNull();
    expect(read.per[1]).toEqual(read.per[2]);
    expect(read.per[1]!.unplaced).toBe(1);
    // 1,000 rows over three days (row n in day n % 3), row 307 unreadable.
    expect((read.per[1]!.days as string[][]).map((d) => d.length)).toEqual([334, 332, 333]);
    // Every summariser strict and spoiled: nothing more is read.
    const all = resource(async (q) => {
      const p = page(q.offset, 1000);
      if (q.offset === 0) p.data[1] = { id: "no-time" };
      return p;
    });
    expect(await listDaysInto(context(), SPAN, [perDay(all, true), perDay(all, true)])).toMatchObject({ kind: "summed", per: [null, null] });
    expect(all.served.calls).toHaveLength(1);
  });

  it("a span with no instant (a day the zone skipped) is empty, and never asked for", async () => {
    const res = resource(async () => {
      throw new Error("asked for an empty span");
    });
    const skipped: DaySpan = { startMs: START, endMs: START, days: [{ date: "2011-12-30", startMs: START, endMs: START }] };
    expect(await listDays(context(), skipped, perDay(res))).toEqual({ kind: "summed", days: [[]], total: 0, unplaced: 0, exact: true });
    expect(res.served.calls).toHaveLength(0);
  });
});

describe("eachBounded", () => {
  it("pulls items only as a worker is free, and keeps results in order", async () => {
    let pulled = 0;
    function* items() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield i;
      }
    }
    let running = 0;
    let most = 0;
    const results = await eachBounded(items(), async (i) => {
      most = Math.max(most, ++running);
      // Pulled so far: those done plus those running, never the whole list up front.
      expect(pulled).toBeLessThanOrEqual(i + UPSTREAM_CONCURRENCY + 1);
      await tick();
      running--;
      return i * 2;
    });
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i * 2));
    expect(most).toBe(UPSTREAM_CONCURRENCY);
  });
});
