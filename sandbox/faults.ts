// Fault injection for tests and manual runs: latency, 500s, 429 storms, malformed JSON bodies, answers
// without rate-limit headers, and hostile-but-valid bodies (odd fields and items, an echoed key, an absurd meta.total; see
// oddities.ts), limited to some paths and keys when asked. Shares are drawn from a seeded PRNG so
// runs repeat.
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
  oddRate: share.optional(),
  echoKey: z.boolean().optional(),
  metaTotal: z.number().optional(),
  hideRateLimitHeaders: z.boolean().optional(),
  paths: z.array(z.string().startsWith("/")).optional(),
  keys: z.array(z.string()).optional(),
}) satisfies z.ZodType<Faults>;

export type FaultAction = { kind: "none" } | { kind: "error" } | { kind: "rate_limit" };

const FAULT_FIELDS = [
  "latencyMs",
  "errorRate",
  "errorCount",
  "rateLimitStorm",
  "malformedRate",
  "malformedCount",
  "oddRate",
  "echoKey",
  "metaTotal",
  "hideRateLimitHeaders",
] as const;

/**
 * The faults in force, as rules: one per key scope (the set of `keys` it names, or none = every
 * key). Setting faults for some keys leaves other keys' rules alone, so tests in parallel can
 * each fault their own demo key. A request follows the first rule that names its key, else the
 * rule for every key.
 */
export class FaultState {
  private rules = new Map<string, Faults>();
  private rng = mulberry32(0xfa017);

  /**
   * Replaces the rule for `faults.keys` (no keys: the rule for every key). A body with no fault
   * fields removes that scope's rule; `{}` clears every rule.
   */
  set(faults: Faults): void {
    const scope = faults.keys?.length ? [...faults.keys].sort().join(",") : "";
    const hasFault = FAULT_FIELDS.some((f) => faults[f] !== undefined);
    if (!hasFault) {
      if (scope === "") this.rules.clear();
      else this.rules.delete(scope);
    } else {
      this.rules.set(scope, { ...faults, paths: faults.paths ? [...faults.paths] : undefined, keys: faults.keys ? [...faults.keys] : undefined });
    }
    this.rng = mulberry32(0xfa017);
  }

  /** The rules in force, with their counters as they stand now (how many injections are left). */
  get(): { rules: Faults[] } {
    const clean = (f: Faults) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Faults;
    return { rules: [...this.rules.values()].map(clean) };
  }

  /** The rule that applies to a request, if any. */
  private ruleFor(path: string, key: string): Faults | undefined {
    let global: Faults | undefined;
    for (const rule of this.rules.values()) {
      if (rule.paths && !rule.paths.some((p) => path.startsWith(p))) continue;
      if (!rule.keys) global ??= rule;
      else if (rule.keys.includes(key)) return rule;
    }
    return global;
  }

  latencyFor(path: string, key: string): number {
    return this.ruleFor(path, key)?.latencyMs ?? 0;
  }

  /** Whether this request is answered with an injected 429 or 500 instead of its real response. */
  actionFor(path: string, key: string): FaultAction {
    const f = this.ruleFor(path, key);
    if (!f) return { kind: "none" };
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

  /** How this request's answer is reshaped (odd data, echoed key, meta.total, no limit headers); nothing without a rule. */
  shapeFor(path: string, key: string): Pick<Faults, "oddRate" | "echoKey" | "metaTotal" | "hideRateLimitHeaders"> {
    const f = this.ruleFor(path, key);
    return f ? { oddRate: f.oddRate, echoKey: f.echoKey, metaTotal: f.metaTotal, hideRateLimitHeaders: f.hideRateLimitHeaders } : {};
  }

  /** Whether a successful body for this request is replaced with invalid JSON. */
  malformFor(path: string, key: string): boolean {
    const f = this.ruleFor(path, key);
    if (!f) return false;
    if (f.malformedCount && f.malformedCount > 0) {
      f.malformedCount--;
      return true;
    }
    return !!f.malformedRate && this.rng() < f.malformedRate;
  }
}
