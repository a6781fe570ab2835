// What an export is in the browser: its URL (a page's filters, the format and the export's id),
// the formats as people know them, and the words the tray uses for unreadable rows.
// Paging parameters are dropped: an export always holds every matching row.
import { formatCount } from "@/lib/format/format";

export type ExportResource = "visitors" | "mentions";
export type ExportFormat = "csv" | "csv-excel" | "json";

/** The export menu, in order, named as people know the formats. */
export const EXPORT_FORMAT_OPTIONS: readonly { value: ExportFormat; label: string }[] = [
  { value: "csv", label: "CSV" },
  { value: "csv-excel", label: "CSV for Excel" },
  { value: "json", label: "JSON" },
];

export const isExportFormat = (v: string): v is ExportFormat => EXPORT_FORMAT_OPTIONS.some((o) => o.value === v);

export const formatLabel = (format: string) => EXPORT_FORMAT_OPTIONS.find((o) => o.value === format)?.label ?? format.toUpperCase();

/** What the status route says about unreadable rows. */
export type UnreadableReport = { count: number; request_ids: string[] };

/** "3 rows could not be read (request req_1, req_2)": the report shown when an export ends. */
export function unreadableMessage(report: UnreadableReport | undefined): string | undefined {
  if (!report || report.count <= 0) return undefined;
  const rows = formatCount(report.count, "row");
  const ids = report.request_ids.length ? ` (request ${report.request_ids.join(", ")})` : "";
  return `${rows} could not be read and ${report.count === 1 ? "was" : "were"} left out${ids}.`;
}

export type ExportFilters = Record<string, string | number | undefined>;

/** Who the file is for: the zone the page counts days in, and the browser's language. */
export type ExportViewer = { tz: string; locale: string };

const NOT_FILTERS = new Set(["limit", "offset", "format", "id", "tz", "locale"]);

/**
 * The export's URL: the filters, the format, the export's id, and the viewer's zone (the file name
 * names the range's days in it; CSV for Excel writes its date-times in it) and, for CSV for Excel
 * only, the browser's language (whose decimal mark decides the list separator).
 */
export function exportUrl(resource: ExportResource, filters: ExportFilters, format: ExportFormat, id: string, viewer?: ExportViewer): string {
  const query = new URLSearchParams();
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value === undefined || value === "" || NOT_FILTERS.has(key)) continue;
    query.set(key, String(value));
  }
  query.set("format", format);
  query.set("id", id);
  if (viewer) {
    query.set("tz", viewer.tz);
    if (format === "csv-excel") query.set("locale", viewer.locale);
  }
  return `/api/export/${resource}?${query.toString()}`;
}

/** The browser's language, as Intl reads it (en-US when it gives none Intl knows). */
export function browserLocale(): string {
  const [locale] = typeof navigator === "undefined" ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  try {
    return locale ? (Intl.getCanonicalLocales(locale)[0] ?? "en-US") : "en-US";
  } catch {
    return "en-US";
  }
}

/**
 * A new export id, made in the browser so the tray knows the export before its first byte:
 * `exp_` and 16 random bytes in base64url (the form the server checks).
 */
export function newExportId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `exp_${base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}
