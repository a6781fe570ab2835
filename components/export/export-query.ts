// Builds the URL of an export from a page's filters. Paging parameters are dropped: an export
// always holds every matching row.

export type ExportResource = "visitors" | "mentions";
export type ExportFormat = "csv" | "csv-excel" | "json";

/** The export menu, in order, named as people know the formats. */
export const EXPORT_FORMAT_OPTIONS: readonly { value: ExportFormat; label: string }[] = [
  { value: "csv", label: "CSV" },
  { value: "csv-excel", label: "CSV for Excel" },
  { value: "json", label: "JSON" },
];

export const isExportFormat = (v: string): v is ExportFormat => EXPORT_FORMAT_OPTIONS.some((o) => o.value === v);

/** What the status route (GET /api/export/status) says about unreadable rows. */
export type UnreadableReport = { count: number; request_ids: string[] };

/** "3 rows could not be read (request req_1, req_2)": the report shown after a download. */
export function unreadableMessage(report: UnreadableReport | undefined): string | undefined {
  if (!report || report.count <= 0) return undefined;
  const rows = `${new Intl.NumberFormat("en-US").format(report.count)} ${report.count === 1 ? "row" : "rows"}`;
  const ids = report.request_ids.length ? ` (request ${report.request_ids.join(", ")})` : "";
  return `${rows} could not be read and ${report.count === 1 ? "was" : "were"} left out${ids}.`;
}
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

/**
 * Seconds left. The server's estimate comes from the key's plan, so it knows about waits for the
 * per-minute window that the observed rate cannot foresee (a Free export runs fast for 10 s, then
 * waits); the observed rate knows about a slow upstream. The larger of the two is the honest one.
 */
export function estimateSecondsLeft(input: {
  done: number;
  total: number;
  elapsedMs: number;
  serverEstimateSeconds?: number;
}): number | undefined {
  const { done, total, elapsedMs, serverEstimateSeconds } = input;
  if (total <= done) return 0;
  const fromPlan = serverEstimateSeconds !== undefined && Number.isFinite(serverEstimateSeconds) ? Math.max(0, serverEstimateSeconds - elapsedMs / 1000) : undefined;
  // Under ~2 s the observed rate is dominated by the first page's latency and the rate-limit burst.
  const observed = elapsedMs >= 2000 && done > 0 ? ((total - done) * elapsedMs) / done / 1000 : undefined;
  if (fromPlan === undefined) return observed;
  if (observed === undefined) return fromPlan;
  return Math.max(fromPlan, observed);
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
