// Demo history: a newcomer signing in with a demo key of the embedded sandbox sees history on the
// first visit. When the upstream is the sandbox this process's entry started, the key is one of its
// demo keys and the store holds no snapshot for the workspace yet, the sandbox's own past (the score
// and ranking of each of its last DEMO_DAYS days, what a reader once a day would have recorded) is
// recorded by the same functions as any read, in one call to the sandbox's /sandbox/history control
// (never by moving the clock every key shares). A marker (daily figures of kind `history:demo`) says
// which days are demo data, so the page can label them. Runs at most once per workspace and process;
// other instances find the history there and skip it. Any other upstream is never asked.
import "server-only";
import { z } from "zod";
import { normalizeRanking, normalizeScore } from "@/lib/data-api/normalize";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { loadDemoKeys } from "@/lib/server/demo-keys";
import { getEnv } from "@/lib/server/env";
import { runtimeFlags } from "@/lib/server/runtime-flags";
import { instantOf, recordScoreAndRanking } from "./record";

/** How many of the sandbox's past days a demo workspace starts with. */
export const DEMO_DAYS = 90;

/** The daily-figures kind marking a workspace's demo history (one row, its data a DemoHistory). */
export const DEMO_MARKER_KIND = "history:demo";

/** Which snapshots are demo data: those with `at` from `from` to `to` (ISO), recorded at start. */
export type DemoHistory = { from: string; to: string; days: number };

export type DemoSeedResult = { days: number; ms: number; calls: number };

const pastDays = z.object({ data: z.array(z.object({ score: z.unknown(), ranking: z.unknown() })) });
const markerSchema = z.object({ from: z.string(), to: z.string(), days: z.number() });

const g = globalThis as typeof globalThis & { __waDemoHistory?: Map<WorkspaceId, Promise<DemoSeedResult | null>> };
const seeded = (g.__waDemoHistory ??= new Map());

/** The embedded sandbox's origin when it is this process's upstream, else null. */
function embeddedUpstream(): string | null {
  const origin = runtimeFlags().embeddedSandboxOrigin;
  if (!origin) return null;
  return new URL(getEnv().dataApiBaseUrl).origin === origin ? origin : null;
}

async function seed(store: Store, workspaceId: WorkspaceId, apiKey: string, fetcher: typeof fetch): Promise<DemoSeedResult | null> {
  const origin = embeddedUpstream();
  if (!origin) return null;
  const demo = await loadDemoKeys();
  if (!demo) {
    // The sandbox may still be starting: asked again on a later read.
    seeded.delete(workspaceId);
    return null;
  }
  if (!demo.some((k) => k.key === apiKey)) return null;
  const workspace = await store.workspaces.workspace(workspaceId);
  if (!workspace || workspace.historySince !== null) return null;
  const started = performance.now();
  const res = await fetcher(`${origin}/sandbox/history?days=${DEMO_DAYS}`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    redirect: "manual",
    cache: "no-store",
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`the sandbox answered ${res.status} for its past days`);
  const parsed = pastDays.safeParse(await res.json());
  if (!parsed.success) return null;
  const days = parsed.data.data.map((day) => ({ score: normalizeScore(day.score), ranking: normalizeRanking(day.ranking) }));
  // A workspace the sandbox measures nothing for (its empty one) starts without history, as a real one would.
  if (days.every((d) => d.ranking.data.length === 0)) return null;
  let first: number | null = null;
  let last: number | null = null;
  for (const { score, ranking } of days) {
    // One day after another: the snapshots are few and small, and the embedded database takes one writer.
    await recordScoreAndRanking(store, workspaceId, score, ranking.data.length > 0 ? ranking : null);
    const at = instantOf(score.updated_at);
    if (at !== undefined) {
      first ??= at;
      last = at;
    }
  }
  if (first === null || last === null) return null;
  const marker: DemoHistory = { from: new Date(first).toISOString(), to: new Date(last).toISOString(), days: days.length };
  await store.snapshots.putDailyFigures(workspaceId, { kind: DEMO_MARKER_KIND, date: marker.to.slice(0, 10), tz: "UTC", data: marker });
  const result = { days: marker.days, ms: Math.round(performance.now() - started), calls: 1 };
  console.info(`[history] demo history: ${result.days} days of the sandbox's past recorded in ${result.ms} ms (${result.calls} call)`);
  return result;
}

/**
 * Records the demo history of `workspaceId` if it is due (see the top of this file); resolves when
 * it is there or not due. Never rejects: a failure is logged (without the key) and tried again on a
 * later read.
 */
export function ensureDemoHistory(store: Store, workspaceId: WorkspaceId, apiKey: string, fetcher: typeof fetch = fetch): Promise<DemoSeedResult | null> {
  if (!embeddedUpstream()) return Promise.resolve(null);
  let running = seeded.get(workspaceId);
  if (!running) {
    running = seed(store, workspaceId, apiKey, fetcher).catch((error: unknown) => {
      seeded.delete(workspaceId);
      console.warn(`[history] demo history could not be recorded: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    seeded.set(workspaceId, running);
  }
  return running;
}

/** The demo days of a workspace, or null when its history is all its own. */
export async function demoHistoryOf(store: Store, workspaceId: WorkspaceId): Promise<DemoHistory | null> {
  const rows = await store.snapshots.dailyFigures(workspaceId, { kind: DEMO_MARKER_KIND, tz: "UTC", from: "2000-01-01", to: "2100-12-31" });
  const parsed = rows.length > 0 ? markerSchema.safeParse(rows[0]!.data) : null;
  return parsed?.success ? parsed.data : null;
}
