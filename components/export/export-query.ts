// Builds the URL of an export from a page's filters. Paging parameters are dropped: an export
// always holds every matching row.

export type ExportResource = "visitors" | "mentions";
export type ExportFormat = "csv" | "json";
export type ExportFilters = Record<string, string | number | undefined>;

const PAGING = new Set(["limit", "offset", "format"]);

export function exportUrl(resource: ExportResource, filters: ExportFilters, format: ExportFormat): string {
  const query = new URLSearchParams();
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value === undefined || value === "" || PAGING.has(key)) continue;
    query.set(key, String(value));
  }
  query.set("format", format);
  return `/api/export/${resource}?${query.toString()}`;
}

/** Seconds left, from the observed row rate once there is enough of it, else from the server's plan estimate. */
export function estimateSecondsLeft(input: {
  done: number;
  total: number;
  elapsedMs: number;
  serverEstimateSeconds?: number;
}): number | undefined {
  const { done, total, elapsedMs, serverEstimateSeconds } = input;
  if (total <= done) return 0;
  // Under ~2 s the observed rate is dominated by the first page's latency and the rate-limit burst.
  if (elapsedMs >= 2000 && done > 0) return ((total - done) * elapsedMs) / done / 1000;
  if (serverEstimateSeconds !== undefined) return Math.max(0, serverEstimateSeconds - elapsedMs / 1000);
  return undefined;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  if (m < 60) return rest ? `${m} min ${rest} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}
