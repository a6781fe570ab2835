// Fault injection for tests and manual runs: latency, 500s, 429 storms and malformed JSON bodies,
// limited to some paths and keys when asked. Shares are drawn from a seeded PRNG so runs repeat.
import { z } from "zod";
import { mulberry32 } from "./prng";
import type { Faults } from "./types";

const share = z.number().min(0).max(1);
const count = z.number().int().min(0).max(10_000_000);

export const faultsSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  errorRate: share.optional(),
  errorCount: count.optional(),
  rateLimitStorm: count.optional(),
  malformedRate: share.optional(),
  malformedCount: count.optional(),
  paths: z.array(z.string().startsWith("/")).optional(),
  keys: z.array(z.string()).optional(),
}) satisfies z.ZodType<Faults>;

export type FaultAction = { kind: "none" } | { kind: "error" } | { kind: "rate_limit" };

export class FaultState {
  private faults: Faults = {};
  private rng = mulberry32(0xfa017);

  set(faults: Faults): void {
    this.faults = { ...faults, paths: faults.paths ? [...faults.paths] : undefined, keys: faults.keys ? [...faults.keys] : undefined };
    this.rng = mulberry32(0xfa017);
  }

  /** The current faults, with the counters as they stand now (how many injections are left). */
  get(): Faults {
    return Object.fromEntries(Object.entries(this.faults).filter(([, v]) => v !== undefined)) as Faults;
  }

  private matches(path: string, key: string): boolean {
    const { paths, keys } = this.faults;
    if (paths && !paths.some((p) => path.startsWith(p))) return false;
    if (keys && !keys.includes(key)) return false;
    return true;
  }

  latencyFor(path: string, key: string): number {
    return this.faults.latencyMs && this.matches(path, key) ? this.faults.latencyMs : 0;
  }

  /** Whether this request is answered with an injected 429 or 500 instead of its real response. */
  actionFor(path: string, key: string): FaultAction {
    if (!this.matches(path, key)) return { kind: "none" };
    const f = this.faults;
    if (f.rateLimitStorm && f.rateLimitStorm > 0) {
      f.rateLimitStorm--;
      return { kind: "rate_limit" };
    }
    if (f.errorCount && f.errorCount > 0) {
      f.errorCount--;
      return { kind: "error" };
    }
    if (f.errorRate && this.rng() < f.errorRate) return { kind: "error" };
    return { kind: "none" };
  }

  /** Whether a successful body for this request is replaced with invalid JSON. */
  malformFor(path: string, key: string): boolean {
    if (!this.matches(path, key)) return false;
    const f = this.faults;
    if (f.malformedCount && f.malformedCount > 0) {
      f.malformedCount--;
      return true;
    }
    return !!f.malformedRate && this.rng() < f.malformedRate;
  }
}
