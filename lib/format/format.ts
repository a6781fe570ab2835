// Display formatting shared by every page: numbers, percentages, signed changes, dates and times.
// Missing values render as "—" so a lenient upstream body never shows "undefined" or "NaN".
export const MISSING = "—";

const integerFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

// Intl formatters are costly to construct and a table formats hundreds of cells: reuse them.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    dateFormats.set(key, f);
  }
  return f;
}
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(minimumFractionDigits: number, maximumFractionDigits: number): Intl.NumberFormat {
  const key = `${minimumFractionDigits}|${maximumFractionDigits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { minimumFractionDigits, maximumFractionDigits });
    numberFormats.set(key, f);
  }
  return f;
}

/** 12345 -> "12,345"; missing -> "—". */
export function formatNumber(n: number | null | undefined): string {
  return isNumber(n) ? integerFormat.format(n) : MISSING;
}

/** 12345 -> "12.3K" (chart axes). */
export function formatCompact(n: number | null | undefined): string {
  return isNumber(n) ? compactFormat.format(n) : MISSING;
}

/** Percentage points (12.5 means 12.5 %) -> "12.5%". */
export function formatPercent(pp: number | null | undefined, digits = 1): string {
  if (!isNumber(pp)) return MISSING;
  return `${numberFormat(0, digits).format(pp)}%`;
}

export type ChangeDirection = "up" | "down" | "flat";

export type FormattedChange = {
  direction: ChangeDirection;
  /** Signed text, e.g. "+12.5%", "−3%", "0%"; "—" when unknown. */
  text: string;
  /** Words for screen readers and tooltips: "up 12.5%". */
  label: string;
};

/**
 * A change with an explicit sign (a true minus sign), its direction and a spoken label: colour is
 * never the only carrier of meaning. `unit`: "%" a relative change in percent, "points" a difference
 * of two rates or scores ("+1 pt", spoken "up 1 point", singular for exactly one), "" a bare number.
 */
export function formatChange(pp: number | null | undefined, unit: "%" | "" | "points" = "%", digits = 1): FormattedChange {
  if (!isNumber(pp)) return { direction: "flat", text: MISSING, label: "change unknown" };
  const rounded = Number(pp.toFixed(digits));
  const abs = numberFormat(0, digits).format(Math.abs(rounded));
  if (rounded === 0) return { direction: "flat", text: unit === "points" ? "0 pts" : `0${unit}`, label: "no change" };
  const direction: ChangeDirection = rounded > 0 ? "up" : "down";
  const sign = rounded > 0 ? "+" : "\u2212";
  if (unit === "points") {
    const one = Math.abs(rounded) === 1;
    return { direction, text: `${sign}${abs} ${one ? "pt" : "pts"}`, label: `${direction} ${abs} ${one ? "point" : "points"}` };
  }
  return { direction, text: `${sign}${abs}${unit}`, label: `${direction} ${abs}${unit}` };
}

/** Normalises a free-form trend direction ("up", "Down", "steady") to the three the UI draws. */
export function toDirection(value: string | null | undefined, change?: number): ChangeDirection {
  const v = (value ?? "").toLowerCase();
  if (v === "up" || v === "increase" || v === "rising") return "up";
  if (v === "down" || v === "decrease" || v === "falling") return "down";
  if (v === "flat" || v === "steady" || v === "stable") return "flat";
  if (isNumber(change)) return change > 0 ? "up" : change < 0 ? "down" : "flat";
  return "flat";
}

export const ARROWS: Record<ChangeDirection, string> = { up: "▲", down: "▼", flat: "▬" };

/** snake_case identifiers (intents, event types) -> "Problem research". */
export function humanize(value: string | null | undefined): string {
  if (!value) return MISSING;
  const words = value.replace(/[_-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : MISSING;
}

const parseDate = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** "Nov 20, 2026, 14:03 UTC" in the given zone, with the zone named. */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  const d = parseDate(iso);
  if (!d) return MISSING;
  return dateFormat(timeZone, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(d);
}

/** The exact instant for hover text: "Friday, November 20, 2026 at 14:03:07 Coordinated Universal Time". */
export function formatExact(iso: string | null | undefined, timeZone: string): string {
  const d = parseDate(iso);
  if (!d) return MISSING;
  return dateFormat(timeZone, { dateStyle: "full", timeStyle: "long" }).format(d);
}

/** "Nov 20, 2026 14:03" in the given zone, for tables whose header names the zone. */
export function formatDateTimeShort(iso: string | null | undefined, timeZone: string): string {
  const d = parseDate(iso);
  if (!d) return MISSING;
  return dateFormat(timeZone, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(d);
}

/** The short name of a zone at an instant: "UTC", "EST", "GMT+1". */
export function zoneName(timeZone: string, at: Date = new Date()): string {
  const part = dateFormat(timeZone, { timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

/** "Nov 20, 2026" in the given zone. */
export function formatDate(iso: string | null | undefined, timeZone: string): string {
  const d = parseDate(iso);
  if (!d) return MISSING;
  return dateFormat(timeZone, { year: "numeric", month: "short", day: "numeric" }).format(d);
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

const relativeFormat = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** "3 hours ago" / "in 2 days" relative to `now`. */
export function formatRelative(iso: string | null | undefined, now: Date): string {
  const d = parseDate(iso);
  if (!d) return MISSING;
  let value = (d.getTime() - now.getTime()) / 1000;
  const rtf = relativeFormat;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), "year");
}

/** "1m 05s", "42s", "2h 03m" for durations in seconds. */
export function formatDuration(seconds: number | null | undefined): string {
  if (!isNumber(seconds) || seconds < 0) return MISSING;
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/**
 * "1–20 of 12,345" for a list page; "0 results" when empty. `count` is the positions the page
 * covered (rows shown plus rows that could not be read); without a valid total: "1–20".
 */
export function formatRange(offset: number, count: number, total: number | undefined): string {
  if (total === undefined) return count === 0 ? `none from ${formatNumber(offset + 1)}` : `${formatNumber(offset + 1)}–${formatNumber(offset + count)}`;
  if (total === 0 || count === 0) return total === 0 ? "0 results" : `${formatNumber(offset + 1)}+ of ${formatNumber(total)}`;
  return `${formatNumber(offset + 1)}–${formatNumber(offset + count)} of ${formatNumber(total)}`;
}

/** Country code -> "Germany" (falls back to the code). */
export function formatCountry(code: string | null | undefined): string {
  if (!code) return MISSING;
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
