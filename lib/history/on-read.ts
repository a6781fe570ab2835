// Snapshots on page views: every read of /intelligence/score or /intelligence/ranking the BFF makes
// for a session (a page's prefetch, /api over HTTP) is recorded for the session's workspace, after
// the answer, never holding it up. A process remembers the last `updated_at` it recorded per key and
// endpoint, so repeated reads of the same day write nothing (the store also ignores an `at` it holds,
// for other instances). Never during `next build` (no store then); a failure is logged without the key.
import "server-only";
import type { Ranking, Score } from "@/lib/data-api/schemas";
import { keyId } from "@/lib/server/key-id";
import { serverContext } from "@/lib/server/context";
import { isBuildPhase } from "@/lib/store/shared";
import { ensureDemoHistory } from "./demo-history";
import { snapshotKept } from "./events";
import { recordScoreAndRanking } from "./record";

const RECORDED_PATHS = ["/intelligence/score", "/intelligence/ranking"] as const;
type RecordedPath = (typeof RECORDED_PATHS)[number];

/** Past this many keys remembered, the memory starts over (the store still refuses duplicates). */
const MEMORY_MAX = 10_000;

const g = globalThis as typeof globalThis & { __waHistoryLast?: Map<string, string>; __waHistoryPending?: Set<Promise<void>> };
const lastRecorded = (g.__waHistoryLast ??= new Map());
const pending = (g.__waHistoryPending ??= new Set());

export const isRecordedPath = (path: string): path is RecordedPath => (RECORDED_PATHS as readonly string[]).includes(path);

async function record(apiKey: string, path: RecordedPath, result: Score | Ranking): Promise<void> {
  const store = await serverContext().store();
  const workspace = await store.workspaces.workspaceForKey(apiKey);
  // A demo workspace's past goes in first, so the day read now is not taken for the start of its history.
  await ensureDemoHistory(store, workspace.id, apiKey);
  const kept =
    path === "/intelligence/score"
      ? await recordScoreAndRanking(store, workspace.id, result as Score, null)
      : await recordScoreAndRanking(store, workspace.id, null, result as Ranking);
  // A new snapshot is told to history's listeners (alert rules are checked after it).
  if (kept.score || kept.ranking) await snapshotKept(store, workspace.id);
}

/** Records `result`, just read from `path` with `apiKey`, in the background (see the top of this file). */
export function recordOnRead(apiKey: string, path: string, result: unknown): void {
  if (!isRecordedPath(path) || isBuildPhase()) return;
  const updatedAt = (result as { updated_at?: unknown } | null)?.updated_at;
  if (typeof updatedAt !== "string") return;
  const memo = `${keyId(apiKey)}:${path}`;
  if (lastRecorded.get(memo) === updatedAt) return;
  if (lastRecorded.size >= MEMORY_MAX) lastRecorded.clear();
  lastRecorded.set(memo, updatedAt);
  const run = record(apiKey, path, result as Score | Ranking)
    .catch((error: unknown) => {
      // Forgotten, so a later read tries again.
      if (lastRecorded.get(memo) === updatedAt) lastRecorded.delete(memo);
      console.warn(
        `[history] could not record ${path === "/intelligence/score" ? "the score" : "the ranking"}: ${error instanceof Error ? error.message : String(error)}`,
      );
    })
    .finally(() => pending.delete(run));
  pending.add(run);
}

/** Resolves once every recording started so far has settled (tests; a history read right after a view). */
export async function recordingsSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** Forgets what this process recorded (tests that start from an empty store). */
export function forgetRecorded(): void {
  lastRecorded.clear();
}
