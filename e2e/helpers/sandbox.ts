// Direct access to the sandbox Data API from tests: the same query the dashboard makes, straight to
// the upstream with a demo key, so a page's numbers can be compared with the API's own answer; and
// the sandbox's admin endpoints to inject and clear faults.
import { DEMO_KEYS, maskKey } from "../../sandbox/keys";

export const SANDBOX_URL = `http://127.0.0.1:${Number(process.env.E2E_SANDBOX_PORT ?? 4117)}`;
export { DEMO_KEYS };

/** GET {SANDBOX_URL}/v1{path} with a demo key, waiting out a 429 (tests share the key's budget). */
export async function sandboxGet<T>(path: string, key: string = DEMO_KEYS.pro): Promise<T> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await fetch(`${SANDBOX_URL}/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
      continue;
    }
    if (!res.ok) throw new Error(`sandbox ${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  throw new Error(`sandbox ${path}: still rate limited`);
}

export type Faults = {
  errorRate?: number;
  errorCount?: number;
  rateLimitStorm?: number;
  malformedCount?: number;
  latencyMs?: number;
  /** 0..1 share of items and objects of 200 bodies with realistic oddities (sandbox/oddities.ts). */
  oddRate?: number;
  /** Echo the caller's key in errors, X-Request-ID and 200 bodies. */
  echoKey?: boolean;
  /** Replaces meta.total of list bodies. */
  metaTotal?: number;
  paths?: string[];
  keys?: string[];
};

export async function setFaults(faults: Faults): Promise<void> {
  const res = await fetch(`${SANDBOX_URL}/sandbox/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(faults),
  });
  if (!res.ok) throw new Error(`setting faults: HTTP ${res.status}`);
}

/** Removes the fault rule of these keys only (the sandbox keeps one rule per key scope). */
export const clearFaults = (keys: string[]) => setFaults({ keys });

async function holdControl(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${SANDBOX_URL}/sandbox/holds`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`sandbox holds: HTTP ${res.status} ${await res.text()}`);
}

/**
 * Holds `key`'s requests on `paths` (with `query`'s values, e.g. `{limit: "100"}`: an export's pages,
 * not a list's) unanswered until released (sandbox/README.md, holds); each goes on by itself after
 * `maxMs` (default 10 s, under the dashboard's 15 s upstream timeout).
 */
export const hold = (key: string, paths: string[], query?: Record<string, string>, maxMs?: number) =>
  holdControl({ key, paths, ...(query ? { query } : {}), ...(maxMs !== undefined ? { maxMs } : {}) });
/** Lets `count` of `key`'s held requests go (the longest waiting first, then the next to come). */
export const release = (key: string, count: number) => holdControl({ key, release: count });
/** Ends `key`'s hold: everything waiting goes on. */
export const endHold = (key: string) => holdControl({ key, end: true });

/** `key`'s hold as the sandbox counts it: requests waiting now, and those that went on since it started. */
export async function holdState(key: string): Promise<{ waiting: number; passed: number }> {
  const res = await fetch(`${SANDBOX_URL}/sandbox/holds`);
  if (!res.ok) throw new Error(`sandbox holds: HTTP ${res.status}`);
  const { holds } = (await res.json()) as { holds: Array<{ key: string; waiting: number; passed: number }> };
  const found = holds.find((h) => h.key === maskKey(key));
  if (!found) throw new Error(`no hold on ${maskKey(key)}`);
  return found;
}

export const numberText = (n: number) => new Intl.NumberFormat("en-US").format(n);

/** A rate as the dashboard writes it: percentage points with one decimal, always ("4.0%"). */
export const percentText = (pp: number) => `${(Math.round(pp * 10) / 10).toFixed(1)}%`;
