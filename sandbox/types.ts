// Public types of the sandbox: its options, the faults tests can switch on, and its request stats.

/** Faults injected into /v1 requests that match `paths` and `keys` (both optional). */
export type Faults = {
  /** Added delay before every matching response. */
  latencyMs?: number;
  /** 0..1 share of matching requests answered with 500 internal_error. */
  errorRate?: number;
  /** The next N matching requests get 500 internal_error. */
  errorCount?: number;
  /** The next N matching requests get 429 rate_limit_exceeded with Retry-After: 1. */
  rateLimitStorm?: number;
  /** 0..1 share of matching 200 responses whose body is invalid JSON. */
  malformedRate?: number;
  /** The next N matching 200 responses have an invalid JSON body. */
  malformedCount?: number;
  /**
   * 0..1 share of the items and objects of matching 200 bodies that get realistic oddities (null,
   * missing, numeric-string and wrongly typed fields, unknown enum values, invalid timestamps); a
   * fifth of the odd list items cannot be read at all. Deterministic per item (see oddities.ts).
   */
  oddRate?: number;
  /** Echo the caller's key in error codes, messages and params, X-Request-ID and 200 bodies. */
  echoKey?: boolean;
  /** Replaces `meta.total` of matching list bodies (e.g. 1e11, or an invalid -1 / 2.5). */
  metaTotal?: number;
  /**
   * Answers without X-RateLimit-Limit, -Remaining and -Reset (an upstream that never announces its
   * limits); the limits are still enforced, and a 429 still carries Retry-After.
   */
  hideRateLimitHeaders?: boolean;
  /** Only requests whose path after /v1 starts with one of these (e.g. "/visitors"). */
  paths?: string[];
  /** Only requests made with one of these (full) keys. */
  keys?: string[];
};

export type SandboxOptions = {
  /** 0 = any free port. */
  port: number;
  host: string;
  seed: number;
  /**
   * ISO instant the visitor and mention rows are dated relative to, and where the sandbox's clock
   * (which dates the score and ranking) starts; undefined = the real time at start.
   */
  now: string | undefined;
  /** Visitors in the demo workspace. */
  visitors: number;
  /** Faults active from the start (from SANDBOX_* variables); tests use setFaults instead. */
  faults: Faults;
  /**
   * The wall clock (ms epoch): rate-limit windows and logs follow it, and the sandbox's clock runs
   * with it from `now` (moved further by /sandbox/clock). Tests inject one to advance time without waiting.
   */
  clock?: () => number;
};

export type SandboxLogEntry = {
  t: number;
  /** Masked key (last 4 characters), or "" when none was sent. */
  key: string;
  method: string;
  /** Full request path without the query, e.g. "/v1/visitors". */
  path: string;
  /** Query string without "?" ("" when none). */
  query: string;
  status: number;
  /** The X-Request-ID the response carried (what an error body names as request_id). */
  request_id: string;
};

export type SandboxStats = {
  /** Every request that reached the server (admin endpoints included). */
  requests: number;
  /** Requests per path after /v1 (e.g. "/visitors", "/visitors/vis_x/timeline"); /v1 requests only. */
  byPath: Record<string, number>;
  /** Responses with status 429 (real limits and injected storms). */
  rateLimited: number;
  /** The most recent requests, oldest first (bounded). */
  log: SandboxLogEntry[];
};

export type Sandbox = {
  /** http://127.0.0.1:PORT */
  url: string;
  /** url + "/v1" */
  baseUrl: string;
  setFaults(f: Faults): void;
  stats(): SandboxStats;
  /** Clears stats and rate-limit counters (faults stay). */
  reset(): void;
  /**
   * Requests held back by the latencyMs fault right now whose caller still waits. Such a request
   * waits on a timer, not on I/O: tests on fake time move the clock on while it waits (lib/fake-time.ts).
   */
  delayed(): number;
  /**
   * Revokes a demo key (`revoked` true, the default) or gives it back (false), as someone deleting
   * the key in the workspace's settings would: from the next request on it gets 401. Also
   * `POST /sandbox/revoked`. Neither reset() nor the clock gives it back.
   */
  revokeKey(key: string, revoked?: boolean): void;
  close(): Promise<void>;
};
