// The one formatter of everything people read: numbers, rates and changes, dates, times and time
// zones, durations and sizes, and the AI platforms' order. Every page, table, card, chart axis and
// tooltip, the visitor page, the timeline, the mentions feed and the exports tray format through
// here, so one figure or one instant reads the same wherever it shows (a test fails when a component
// formats by hand: lib/format/hand-formatting.test.ts).
//
// Rules, stated once:
// - Rates, shares and changes in per cent have exactly one decimal: "4.0%" beside "4.9%", never "4%".
//   Differences of two rates are percentage points, also to one decimal: "+1.5 pts".
// - Dates read day, month, year: "26 Nov 2026"; a time adds the 24-hour clock: "26 Nov 2026, 08:00".
//   A date range: "28 Oct – 26 Nov 2026". A time is never followed by a zone abbreviation ("GMT+1",
//   "CET"): the zone is named once for the view, with `formatZone` ("Berlin time", "UTC"), in the
//   header, in column headings and in window notes alike.
// - Output never depends on the runtime's locale data: month and weekday names come from the tables
//   below and Intl gives only numeric calendar fields, so the server's HTML and the browser's first
//   render are the same text (a difference is a hydration error), whatever ICU each one has.
// - Missing values read "—", so a lenient upstream body never shows "undefined" or "NaN".
import { LABELS, PLATFORMS } from "@/lib/data-api/constants";

export const MISSING = "—";

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

// ---------------------------------------------------------------------------------------------
// Numbers, rates and changes

const integerFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimalFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const compactFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** 12345 -> "12,345"; missing -> "—". */
export function formatNumber(n: number | null | undefined): string {
  return isNumber(n) ? integerFormat.format(n) : MISSING;
}

/** 12345 -> "12.3K" (chart axes). */
export function formatCompact(n: number | null | undefined): string {
  return isNumber(n) ? compactFormat.format(n) : MISSING;
}

const thresholdFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A threshold as it was typed: 5 -> "5", 2.5 -> "2.5", 1000 -> "1,000" (no decimals added). */
export function formatThreshold(n: number | null | undefined): string {
  return isNumber(n) ? thresholdFormat.format(n) : MISSING;
}

/** A figure to one decimal, always shown: 3 -> "3.0" (an average position, a score's part). */
export function formatDecimal(n: number | null | undefined): string {
  return isNumber(n) ? oneDecimalFormat.format(n) : MISSING;
}

/** Percentage points (12.5 means 12.5 %) -> "12.5%", and 4 -> "4.0%": always one decimal. */
export function formatPercent(pp: number | null | undefined): string {
  return isNumber(pp) ? `${oneDecimalFormat.format(pp)}%` : MISSING;
}

export type ChangeDirection = "up" | "down" | "flat";

export type FormattedChange = {
  direction: ChangeDirection;
  /** Signed text, e.g. "+12.5%", "−3.0%", "0.0%"; "—" when unknown. */
  text: string;
  /** Words for screen readers and tooltips: "up 12.5%". */
  label: string;
};

/**
 * A change with an explicit sign (a true minus sign), its direction and a spoken label: colour is
 * never the only carrier of meaning. `unit`: "%" a relative change in per cent, "points" a difference
 * of two rates or scores ("+1.5 pts", spoken "up 1.5 points"; "pt" and "point" for exactly one), ""
 * a bare number. One decimal, always shown, like every rate.
 */
export function formatChange(pp: number | null | undefined, unit: "%" | "" | "points" = "%"): FormattedChange {
  if (!isNumber(pp)) return { direction: "flat", text: MISSING, label: "change unknown" };
  // Halves round away from zero, as people round: −3.25 is −3.3, as +3.25 is +3.3.
  const rounded = (Math.sign(pp) * Math.round(Math.abs(pp) * 10)) / 10;
  const abs = oneDecimalFormat.format(Math.abs(rounded));
  const one = Math.abs(rounded) === 1;
  const unitText = unit === "points" ? ` ${one ? "pt" : "pts"}` : unit;
  const unitWords = unit === "points" ? ` ${one ? "point" : "points"}` : unit;
  if (rounded === 0) return { direction: "flat", text: `${abs}${unitText}`, label: "no change" };
  const direction: ChangeDirection = rounded > 0 ? "up" : "down";
  return { direction, text: `${rounded > 0 ? "+" : "\u2212"}${abs}${unitText}`, label: `${direction} ${abs}${unitWords}` };
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

/** "1 visitor", "2,345 visitors". */
export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}

/**
 * "1–20 of 12,345" for a list page; "0 results" when empty. `count` is the positions the page
 * covered (rows shown plus rows that could not be read); without a valid total: "1–20".
 */
export function formatPageSpan(offset: number, count: number, total: number | undefined): string {
  if (total === undefined) return count === 0 ? `none from ${formatNumber(offset + 1)}` : `${formatNumber(offset + 1)}–${formatNumber(offset + count)}`;
  if (total === 0 || count === 0) return total === 0 ? "0 results" : `${formatNumber(offset + 1)}+ of ${formatNumber(total)}`;
  return `${formatNumber(offset + 1)}–${formatNumber(offset + count)} of ${formatNumber(total)}`;
}

/** "42 s", "2 min 19 s", "1 h 3 min" for a duration in seconds (time on a page, an export's wait). */
export function formatDuration(seconds: number | null | undefined): string {
  if (!isNumber(seconds) || seconds < 0) return MISSING;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  if (m < 60) return rest ? `${m} min ${rest} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** "2.1 MB": a file size in the units a browser's downloads list uses. */
export function formatBytes(bytes: number | null | undefined): string {
  if (!isNumber(bytes) || bytes < 0) return MISSING;
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  if (bytes < 1_000_000) return `${bytes < 10_000 ? oneDecimalFormat.format(bytes / 1000) : integerFormat.format(bytes / 1000)} KB`;
  return `${oneDecimalFormat.format(bytes / 1_000_000)} MB`;
}

// ---------------------------------------------------------------------------------------------
// Words for values

/** snake_case identifiers (intents, event types) -> "Problem research". */
export function humanize(value: string | null | undefined): string {
  if (!value) return MISSING;
  const words = value.replace(/[_-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : MISSING;
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** Country code -> "Germany" (falls back to the code). */
export function formatCountry(code: string | null | undefined): string {
  if (!code) return MISSING;
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

// ---------------------------------------------------------------------------------------------
// The AI platforms' order

/** The order every list of AI platforms follows (cards, tables, filters, charts, sentences). */
export const PLATFORM_ORDER: readonly string[] = PLATFORMS;

/** Sorts platforms (or anything naming one) in PLATFORM_ORDER; unknown values after, as they came. */
export function sortPlatforms<T>(items: readonly T[], platformOf: (item: T) => string): T[] {
  const rank = (item: T) => {
    const i = PLATFORM_ORDER.indexOf(platformOf(item));
    return i === -1 ? PLATFORM_ORDER.length : i;
  };
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i)
    .map((x) => x.item);
}

/** "ChatGPT, Claude, Perplexity or Gemini": the AI platforms named in a sentence, in their order. */
export function formatPlatformList(conjunction: "or" | "and" = "or"): string {
  const names = PLATFORM_ORDER.map((p) => LABELS[p] ?? p);
  return `${names.slice(0, -1).join(", ")} ${conjunction} ${names[names.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// Dates, times and time zones

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

type Fields = { year: number; month: number; day: number; hour: number; minute: number; second: number };

// Intl formatters are costly to construct and a table formats hundreds of cells: one per zone.
const fieldFormats = new Map<string, Intl.DateTimeFormat>();
function fieldFormat(timeZone: string): Intl.DateTimeFormat {
  let f = fieldFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    fieldFormats.set(timeZone, f);
  }
  return f;
}

/** The calendar and clock fields of an instant in `timeZone` (numbers only: the same in every runtime). */
/** An instant's wall-clock fields in `timeZone` (null for a zone this runtime does not know). */
export function fieldsIn(ms: number, timeZone: string): Fields | null {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = fieldFormat(timeZone).formatToParts(ms);
  } catch {
    return null; // a zone this runtime does not know
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour") % 24, minute: get("minute"), second: get("second") };
}

const parseInstant = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

const pad = (n: number) => String(n).padStart(2, "0");
const dayText = (f: Pick<Fields, "day" | "month">) => `${f.day} ${MONTHS[f.month - 1]}`;
const clock = (f: Fields) => `${pad(f.hour)}:${pad(f.minute)}`;

/** "26 Nov 2026": the day of an instant in `timeZone`. */
export function formatDate(iso: string | null | undefined, timeZone: string): string {
  const ms = parseInstant(iso);
  const f = ms === null ? null : fieldsIn(ms, timeZone);
  return f ? `${dayText(f)} ${f.year}` : MISSING;
}

/** "26 Nov 2026, 08:00": an instant in `timeZone`, which the view names once (formatZone). */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  const ms = parseInstant(iso);
  const f = ms === null ? null : fieldsIn(ms, timeZone);
  return f ? `${dayText(f)} ${f.year}, ${clock(f)}` : MISSING;
}

/** The exact instant for hover text: "Friday 20 November 2026, 12:03:07 (UTC)". */
export function formatExact(iso: string | null | undefined, timeZone: string): string {
  const ms = parseInstant(iso);
  const f = ms === null ? null : fieldsIn(ms, timeZone);
  if (!f) return MISSING;
  const weekday = WEEKDAYS[new Date(Date.UTC(f.year, f.month - 1, f.day)).getUTCDay()];
  return `${weekday} ${f.day} ${MONTHS_LONG[f.month - 1]} ${f.year}, ${clock(f)}:${pad(f.second)} (${formatZone(timeZone)})`;
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` (no zone: it is a day, not an instant): "26 Nov 2026", or "26 Nov" without the year. */
export function formatDay(date: string, withYear = true): string {
  const m = CALENDAR_DATE.exec(date);
  if (!m) return MISSING;
  const f = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (f.month < 1 || f.month > 12) return MISSING;
  return withYear ? `${dayText(f)} ${f.year}` : dayText(f);
}

/** "1 Nov – 30 Nov 2026", "20 Dec 2025 – 5 Jan 2026", or "23 Nov 2026" for one day. */
export function formatDateRange(range: { from: string; to: string }): string {
  if (range.from === range.to) return formatDay(range.to);
  const sameYear = range.from.slice(0, 4) === range.to.slice(0, 4);
  return `${formatDay(range.from, !sameYear)} – ${formatDay(range.to)}`;
}

/** A chart bucket by its first instant, read in the range's zone: "3 Nov", or "Week of 3 Nov". */
export function formatBucket(startIso: string, timeZone: string, bucket: "day" | "week"): string {
  const ms = parseInstant(startIso);
  const f = ms === null ? null : fieldsIn(ms, timeZone);
  if (!f) return MISSING;
  return bucket === "week" ? `Week of ${dayText(f)}` : dayText(f);
}

const UTC_NAMES = new Set([
  "UTC",
  "Etc/UTC",
  "Etc/UCT",
  "UCT",
  "Etc/Universal",
  "Universal",
  "Etc/Zulu",
  "Zulu",
  "GMT",
  "Etc/GMT",
  "Etc/GMT0",
  "Etc/GMT+0",
  "Etc/GMT-0",
  "Etc/Greenwich",
  "Greenwich",
  "GMT0",
]);

/**
 * How a time zone is named to people, the same everywhere a view names it: "UTC", or its place and
 * "time" ("Europe/Berlin" -> "Berlin time", "America/Argentina/Buenos_Aires" -> "Buenos Aires
 * time"). An offset zone says its offset the usual way round ("Etc/GMT+5" is "UTC−5").
 */
export function formatZone(timeZone: string): string {
  if (UTC_NAMES.has(timeZone)) return "UTC";
  const offset = /^Etc\/GMT([+-])(\d{1,2})$/.exec(timeZone);
  if (offset) return `UTC${offset[1] === "+" ? "\u2212" : "+"}${Number(offset[2])}`;
  const place = timeZone.split("/").pop()!.replace(/_/g, " ");
  return `${place} time`;
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

/**
 * "3 hours ago" / "in 2 days" relative to `now` (browser only: the server does not know the reader's
 * now). `tense` says what the instant is: one that happened (a delivery, a check) is never said as
 * to come, and one still to come (a delivery's next try) never as gone, whatever the reader's clock
 * says (it may run behind the server's that stamped the instant): they read "now" instead.
 */
export function formatRelative(iso: string | null | undefined, now: Date, tense?: "past" | "future"): string {
  const ms = parseInstant(iso);
  if (ms === null) return MISSING;
  let value = (ms - now.getTime()) / 1000;
  if ((tense === "past" && value > 0) || (tense === "future" && value < 0)) value = 0;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(value) < size) return relativeFormat.format(Math.round(value), unit);
    value /= size;
  }
  return relativeFormat.format(Math.round(value), "year");
}
