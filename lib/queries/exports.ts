// The exports tray's data: the session's recent exports from GET /api/export/status (server-side
// state, so the list survives leaving the page and a reload), polled every second while one runs,
// and the cancel request. Types come from the server's registry through `import type` only.
import { queryOptions } from "@tanstack/react-query";
import type { ExportStatus } from "@/lib/shared-state/export-status";
import { isDataApiError } from "@/lib/data-api/errors";
import { getJson, sendJson } from "./api";

export type { ExportStatus };

export const EXPORTS_KEY = ["exports"] as const;

const POLL_MS = 1000;

export const isRunning = (s: Pick<ExportStatus, "state">) => s.state === "running" || s.state === "waiting";

/** The session's recent exports, newest first; `pollWhile` says whether to keep asking every second. */
export function exportsQuery(pollWhile: (data: ExportStatus[] | undefined) => boolean) {
  return queryOptions({
    queryKey: EXPORTS_KEY,
    queryFn: async ({ signal }) => (await getJson<{ data: ExportStatus[] }>("/api/export/status", { signal })).data,
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => (pollWhile(query.state.data) ? POLL_MS : false),
  });
}

/** Asks the server to stop an export; its download then fails and nothing complete is saved. */
export async function requestCancel(id: string): Promise<void> {
  try {
    await sendJson("POST", `/api/export/cancel?${new URLSearchParams({ id })}`);
  } catch (error) {
    // Gone already (finished, or forgotten): nothing left to stop.
    if (isDataApiError(error) && error.status === 404) return;
    throw new Error(`The cancel was not accepted (HTTP ${isDataApiError(error) ? error.status : 0}).`);
  }
}
