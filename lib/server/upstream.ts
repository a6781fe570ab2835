// The server's entry point to the Data API: the upstream of the session's key, from the server
// context (lib/server/context.ts: one client per key, each with its scheduler and cache). Pages, route
// handlers and exports all go through it, so every request of a key counts against one budget.
import "server-only";
import type { DataApi } from "@/lib/data-api/api";
import type { Scheduler } from "@/lib/data-api/scheduler";
import { discardUpstream, upstreamFor } from "./context";

export { maskKey } from "@/lib/data-api/redact";

/** The Data API as seen with this key (shared scheduler + cache per key). */
export function dataApiForKey(apiKey: string): DataApi {
  return upstreamFor(apiKey).api;
}

/** The key's learned plan and budget state, e.g. for an export's time estimate. */
export function rateBudgetForKey(apiKey: string): ReturnType<Scheduler["snapshot"]> {
  return upstreamFor(apiKey).scheduler.snapshot();
}

/** Removes everything held for a key that turned out not to work (a rejected sign-in). */
export const discardKey = discardUpstream;
