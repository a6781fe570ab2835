// What a shared page reads (GET /api/shared/{token}/{path}): only the reads its page's widgets make
// (SHARED_READS), run in-process exactly as /api runs them, with the workspace's kept key (watching is
// required: without it the link says so). Answers are cached per link, read and query (the range and
// comparison a viewer chose) for 5 minutes, and one reading serves every viewer asking at once. All
// shared links of a workspace together spend at most a fifth of the key's per-minute budget: the
// upstream calls each reading made are counted per workspace over the last minute, and past the fifth
// a reading not cached is "busy, try again in a minute" (503). What the key sends while a workspace's
// readings run counts as theirs (a member's reads at the same moment too: the fifth is kept on the
// safe side). Notes keep their text, never who wrote them. Both the cache and the count are this
// instance's (see docs/operations.md).
import "server-only";
import type { ApiPath } from "@/lib/queries/server-api";
import { serverApi } from "@/lib/queries/server-api";
import { finalError } from "@/lib/server/http";
import type { Session } from "@/lib/server/session";
import { toPageSession } from "@/lib/server/session";
import { rateBudgetForKey } from "@/lib/server/upstream";
import type { Share } from "@/lib/store/shares";
import type { Store } from "@/lib/store/store";
import { TtlMap } from "@/lib/ttl-map";
import { SHARED_READS, type SharedPage } from "./pages";

/** How long one reading serves a link's viewers. */
export const SHARED_CACHE_MS = 5 * 60 * 1000;
/** The part of the key's per-minute budget all of a workspace's links may spend. */
export const SHARED_BUDGET_SHARE = 1 / 5;

type Kept = { body: unknown; readAt: number };

type SharedReadsState = {
  cache: TtlMap<Kept>;
  inFlight: Map<string, Promise<Kept>>;
  /** Per workspace: the upstream calls its links' readings made, with when. */
  spent: Map<string, { at: number; calls: number }[]>;
  /** Per workspace: readings running now, and the key's calls of the last minute when the first of them began. */
  running: Map<string, { count: number; sentAtStart: number; readings: number }>;
};

const g = globalThis as typeof globalThis & { __waSharedReads?: SharedReadsState };
const state = (): SharedReadsState =>
  (g.__waSharedReads ??= { cache: new TtlMap({ maxEntries: 5_000 }), inFlight: new Map(), spent: new Map(), running: new Map() });

/** Forgets every cached reading and count (tests). */
export function resetSharedReads(): void {
  g.__waSharedReads = undefined;
}

const noSuchRead = () => finalError({ status: 404, code: "not_found", message: "A shared page reads nothing at this path." });

export const watchingRequired = () =>
  finalError({
    status: 409,
    code: "watching_required",
    message: "This shared page cannot be read now: its workspace is not watched. Whoever shared it can turn watching on in Settings.",
  });

const busy = () =>
  finalError({
    status: 503,
    code: "shared_budget_spent",
    message: "This shared page is busy: try again in a minute.",
    retryAfter: 60,
  });

/** Whether `path` is a read of the shared page `page`. */
export const isSharedRead = (page: SharedPage, path: string): path is ApiPath => (SHARED_READS[page] as readonly string[]).includes(path);

/** What a shared answer may not carry: who wrote a note. */
function withoutPeople(path: string, body: unknown): unknown {
  if (path !== "/annotations" || typeof body !== "object" || body === null || !Array.isArray((body as { data?: unknown }).data)) return body;
  return { ...body, data: (body as { data: Record<string, unknown>[] }).data.map((note) => ({ ...note, author: null })) };
}

/** The calls spent by a workspace's links within the last minute. */
function spentLastMinute(workspace: string, now: number): number {
  const list = (state().spent.get(workspace) ?? []).filter((s) => s.at > now - 60_000);
  state().spent.set(workspace, list);
  return list.reduce((sum, s) => sum + s.calls, 0);
}

/**
 * The answer of `path` for a viewer of `share`, with when it was read: from the cache, or read now with
 * the kept key. 404 for a read the page does not make, 409 `watching_required`, 503 past the budget.
 */
export async function readShared(deps: { store: Store; now: () => number }, share: Share, path: string, query: Record<string, string>): Promise<Kept> {
  if (!isSharedRead(share.path as SharedPage, path)) throw noSuchRead();
  const key = `${share.id}\n${path}\n${new URLSearchParams(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1))).toString()}`;
  const s = state();
  const cached = s.cache.get(key);
  if (cached) return cached;
  const running = s.inFlight.get(key);
  if (running) return running;

  const apiKey = await deps.store.workspaces.watchingKey(share.workspace);
  if (!apiKey) throw watchingRequired();
  const budget = rateBudgetForKey(apiKey);
  const allowed = Math.max(1, Math.floor(budget.perMinute * SHARED_BUDGET_SHARE));
  if (spentLastMinute(share.workspace, deps.now()) >= allowed) throw busy();

  const session: Session = { ...toPageSession(apiKey), sessionId: `share-${share.id}`, expiresAt: Number.MAX_SAFE_INTEGER };
  // The calls the key sent while this workspace's readings ran (from the first one's start to the last
  // one's end, so readings running together are counted once), at least one per reading.
  const run = s.running.get(share.workspace) ?? { count: 0, sentAtStart: budget.sentLastMinute, readings: 0 };
  run.count += 1;
  run.readings += 1;
  s.running.set(share.workspace, run);
  const reading = (async () => {
    try {
      const body = withoutPeople(path, await serverApi(session).get(path as ApiPath, { query } as never));
      const kept = { body, readAt: deps.now() };
      s.cache.set(key, kept, SHARED_CACHE_MS);
      return kept;
    } finally {
      s.inFlight.delete(key);
      run.count -= 1;
      if (run.count === 0) {
        s.running.delete(share.workspace);
        const calls = Math.max(run.readings, rateBudgetForKey(apiKey).sentLastMinute - run.sentAtStart);
        const list = s.spent.get(share.workspace) ?? [];
        list.push({ at: deps.now(), calls });
        s.spent.set(share.workspace, list);
      }
    }
  })();
  s.inFlight.set(key, reading);
  return reading;
}
