// Reading the Data API's rate-limit headers. The API's documentation leaves the unit of
// X-RateLimit-Reset open; it is settled as Unix epoch seconds (sandbox/README.md "Settled unknowns"),
// and the client also accepts seconds-to-reset
// (a small number) and an HTTP date, so all three are turned into one absolute time here.

export type RateLimitInfo = {
  /** X-RateLimit-Limit: requests allowed per window (the plan's per-minute budget). */
  limit?: number;
  /** X-RateLimit-Remaining: requests left in the current window. */
  remaining?: number;
  /** X-RateLimit-Reset as an absolute time, ms since the epoch (this machine's clock). */
  resetAt?: number;
  /** Retry-After, in seconds (only meaningful on 429/503). */
  retryAfter?: number;
};

type HeaderSource = Pick<Headers, "get">;

/**
 * The longest wait a rate-limit header may impose, in seconds: on the key's requests (a pause after a
 * 429, waiting for a reset) and in the Retry-After this app sends on. Both of the API's windows end
 * within a minute; the rest is room for clock skew. A Retry-After of 999999999, a far HTTP date or a
 * misread reset must not park a key, or tell a browser to stay away, for years.
 */
export const MAX_RETRY_AFTER_SECONDS = 65;

/** Values below this are read as seconds-to-reset rather than an epoch time (epoch seconds are ~1.7e9). */
const RELATIVE_RESET_MAX = 10 * 365 * 24 * 3600;

const INTEGER = /^\s*\d{1,15}\s*$/;

function parseInteger(value: string | null): number | undefined {
  if (value === null || !INTEGER.test(value)) return undefined;
  return Number(value);
}

/** Parses an X-RateLimit-Reset value in any of its three forms into an absolute ms time. */
export function parseResetHeader(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const n = parseInteger(value);
  if (n !== undefined) {
    if (n <= RELATIVE_RESET_MAX) return now + n * 1000;
    // Epoch milliseconds would be ~1.7e12; accept them too rather than reading them as seconds.
    return n > 1e11 ? n : n * 1000;
  }
  return parseHttpDate(value);
}

function parseHttpDate(value: string): number | undefined {
  // Only date-like strings: Date.parse accepts odd inputs such as "1" otherwise.
  if (!/[a-z]/i.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** Parses Retry-After (delay-seconds or HTTP date) into seconds to wait, 0 to MAX_RETRY_AFTER_SECONDS. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const n = parseInteger(value);
  if (n !== undefined) return Math.min(n, MAX_RETRY_AFTER_SECONDS);
  const t = parseHttpDate(value);
  if (t === undefined) return undefined;
  return Math.min(Math.max(0, Math.ceil((t - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

export function parseRateLimitHeaders(headers: HeaderSource, now: number = Date.now()): RateLimitInfo {
  const info: RateLimitInfo = {};
  const limit = parseInteger(headers.get("x-ratelimit-limit"));
  const remaining = parseInteger(headers.get("x-ratelimit-remaining"));
  const resetAt = parseResetHeader(headers.get("x-ratelimit-reset"), now);
  const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
  if (limit !== undefined && limit > 0) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (resetAt !== undefined) info.resetAt = resetAt;
  if (retryAfter !== undefined) info.retryAfter = retryAfter;
  return info;
}

export type PlanBudget = { perSecond: number; perMinute: number };

/** Before the first response the plan is unknown: assume the smallest documented one (Free). */
export const DEFAULT_BUDGET: PlanBudget = { perSecond: 10, perMinute: 100 };

/**
 * The plan from X-RateLimit-Limit (a per-minute figure). The documented plans map exactly; a custom
 * (Enterprise) limit gets the stricter of the two documented burst ratios (Pro: 5% per second).
 */
/** The plan a per-minute limit stands for, as people know it: Free, Pro, or the limit itself. */
export function planName(perMinute: number): string {
  if (perMinute === 100) return "Free";
  if (perMinute === 1000) return "Pro";
  return `${perMinute.toLocaleString("en-US")} requests/min`;
}

export function budgetForLimit(limit: number): PlanBudget {
  if (limit === 100) return { perSecond: 10, perMinute: 100 };
  if (limit === 1000) return { perSecond: 50, perMinute: 1000 };
  return { perSecond: Math.max(1, Math.floor(limit * 0.05)), perMinute: limit };
}
