// Holds: a test's control over when a key's requests are answered, instead of slowing them by a
// guessed latency. A hold names a key, the paths (prefixes after /v1) and optionally query values a
// request must have; from then on each such request of that key waits, after its authentication and
// rate limit, until the test lets it go: some at a time (`release: n`, the longest waiting first, then
// the next to come), or all with the hold ended. So an export can be kept running exactly as long as a
// test looks at it, and moved on a page at a time. A held request goes on by itself after `maxMs`
// (10 s by default), so a client's own timeout never sees a hold a test forgot. One hold per key.
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { keyInfo } from "./keys";

const DEFAULT_MAX_MS = 10_000;

export const holdBodySchema = z.union([
  z.strictObject({
    key: z.string(),
    paths: z.array(z.string().startsWith("/")).min(1),
    /** Query values a request must have (e.g. `{"limit": "100"}`: an export's pages, not a list's). */
    query: z.record(z.string(), z.string()).optional(),
    maxMs: z.number().int().min(0).max(60_000).optional(),
  }),
  z.strictObject({ key: z.string(), release: z.number().int().min(1).max(100_000) }),
  z.strictObject({ key: z.string(), end: z.literal(true) }),
]);

export type HoldBody = z.infer<typeof holdBodySchema>;

type Waiter = { go: () => void };

type Hold = {
  key: string;
  paths: string[];
  query: Record<string, string>;
  maxMs: number;
  /** Requests waiting, the longest first. */
  waiting: Waiter[];
  /** Releases granted that no request has taken yet. */
  allowance: number;
  /** Requests that went on (released, or after maxMs). */
  passed: number;
};

export type HoldJson = { key: string; paths: string[]; query: Record<string, string>; max_ms: number; waiting: number; passed: number; allowance: number };

/** Why a hold body was refused: the field to blame. */
export type HoldRefusal = { message: string; param: string };

export class Holds {
  private holds = new Map<string, Hold>();

  /** Applies a control body (already parsed by `holdBodySchema`): starts, releases or ends a hold. */
  apply(body: HoldBody, mask: (key: string) => string): HoldRefusal | null {
    if (!keyInfo(body.key)) return { message: "key must be one of the sandbox's demo keys (GET /sandbox/keys) or a key derived from one", param: "key" };
    if ("paths" in body) {
      this.end(body.key);
      this.holds.set(body.key, {
        key: body.key,
        paths: [...body.paths],
        query: { ...body.query },
        maxMs: body.maxMs ?? DEFAULT_MAX_MS,
        waiting: [],
        allowance: 0,
        passed: 0,
      });
      return null;
    }
    if ("end" in body) {
      this.end(body.key);
      return null;
    }
    const hold = this.holds.get(body.key);
    if (!hold) return { message: `No hold on ${mask(body.key)}: start one with {"key", "paths"}`, param: "key" };
    hold.allowance += body.release;
    while (hold.allowance > 0 && hold.waiting.length > 0) {
      hold.allowance--;
      hold.waiting.shift()!.go();
    }
    return null;
  }

  list(mask: (key: string) => string): { holds: HoldJson[] } {
    return {
      holds: [...this.holds.values()].map((h) => ({
        key: mask(h.key),
        paths: h.paths,
        query: h.query,
        max_ms: h.maxMs,
        waiting: h.waiting.length,
        passed: h.passed,
        allowance: h.allowance,
      })),
    };
  }

  /**
   * Resolves when the request may be answered: at once when no hold matches it, else when released,
   * when its hold ends, after the hold's maxMs, or when the caller has gone (`res` closed).
   */
  wait(path: string, query: URLSearchParams, key: string, res: ServerResponse): Promise<void> {
    const hold = this.holds.get(key);
    if (!hold || !hold.paths.some((p) => path.startsWith(p))) return Promise.resolve();
    if (Object.entries(hold.query).some(([name, value]) => query.get(name) !== value)) return Promise.resolve();
    if (hold.allowance > 0) {
      hold.allowance--;
      hold.passed++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      let done = false;
      const waiter: Waiter = {
        go: () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          res.off("close", gone);
          hold.passed++;
          resolve();
        },
      };
      const gone = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        hold.waiting = hold.waiting.filter((w) => w !== waiter);
        resolve();
      };
      const timer = setTimeout(() => {
        hold.waiting = hold.waiting.filter((w) => w !== waiter);
        waiter.go();
      }, hold.maxMs);
      res.once("close", gone);
      hold.waiting.push(waiter);
    });
  }

  private end(key: string): void {
    const hold = this.holds.get(key);
    if (!hold) return;
    this.holds.delete(key);
    for (const waiter of hold.waiting.splice(0)) waiter.go();
  }
}
