// What every change on the insights pages compares with: the previous period (the default), the same
// calendar dates a year before, or a custom window of as many days as the range. Carried in the URL
// beside the range (`compare=previous|year|custom`, `compare_from`, `compare_to`), chosen in the
// header, sent on by every insights query, and named on every change shown. The window a change was
// counted against is read from the answer (`compare: {from, to}`), so a label never names a window
// the figures were not counted against; an answer without it was counted against the previous period.
import { parseAsString } from "nuqs/server";
import { calendarDayNumber } from "@/lib/data-api/params";
import { comparisonProblem } from "@/lib/insights/schema";
import { formatDateRange } from "@/lib/format/format";
import { addDays, daysBetween } from "./calendar";
import { previousRange, type DateRange } from "./date-range";

export const COMPARE_KINDS = ["previous", "year", "custom"] as const;
export type CompareKind = (typeof COMPARE_KINDS)[number];

export type Comparison = { kind: "previous" } | { kind: "year" } | { kind: "custom"; from: string; to: string };

/** The comparison's URL parameters (nuqs parsers, for server loaders and useQueryStates alike). */
export const comparisonSearchParams = {
  compare: parseAsString,
  compare_from: parseAsString,
  compare_to: parseAsString,
};

export type RawComparison = { compare?: string | null; compare_from?: string | null; compare_to?: string | null };

/**
 * What is wrong with a comparison in a URL, by the parameter to fix: an unknown kind names
 * `compare`; a custom window without a readable start `compare_from`; one without a readable end, or
 * of another length than the range, `compare_to` (as the routes name it).
 */
export type ComparisonProblem = { param: "compare" | "compare_from" | "compare_to"; reason: "unknown_kind" | "not_a_date" | "length" };

export type ResolvedComparison = {
  /** The comparison to use: the URL's when it is one, else the previous period. */
  comparison: Comparison;
  /** The window it stands for, for this range. */
  window: DateRange;
  problem: ComparisonProblem | null;
};

const isKind = (v: string): v is CompareKind => (COMPARE_KINDS as readonly string[]).includes(v);

/** A calendar date a year earlier: 29 Feb reads 28 Feb. */
export function yearEarlier(date: string): string {
  const [y, m, d] = date.split("-");
  const day = m === "02" && d === "29" ? "28" : d;
  return `${String(Number(y) - 1).padStart(4, "0")}-${m}-${day}`;
}

/** The same calendar dates a year before the range. */
export const yearBeforeRange = (range: DateRange): DateRange => ({ from: yearEarlier(range.from), to: yearEarlier(range.to), tz: range.tz });

/** The custom window starting on `from` with as many days as the range. */
export const customWindowFrom = (range: DateRange, from: string): DateRange => ({
  from,
  to: addDays(from, daysBetween(range.from, range.to) - 1),
  tz: range.tz,
});

/** The window a comparison stands for, for `range`. */
export function comparisonWindow(range: DateRange, comparison: Comparison): DateRange {
  if (comparison.kind === "year") return yearBeforeRange(range);
  if (comparison.kind === "custom") return { from: comparison.from, to: comparison.to, tz: range.tz };
  return previousRange(range);
}

/** Reads the comparison of a URL against its range; a bad one is said (`problem`) and the previous period used meanwhile. */
export function resolveComparison(raw: RawComparison, range: DateRange): ResolvedComparison {
  const fallback = { comparison: { kind: "previous" } as const, window: previousRange(range) };
  const kind = raw.compare || "previous";
  if (!isKind(kind)) return { ...fallback, problem: { param: "compare", reason: "unknown_kind" } };
  if (kind !== "custom") {
    const comparison: Comparison = { kind };
    return { comparison, window: comparisonWindow(range, comparison), problem: null };
  }
  const from = raw.compare_from ?? "";
  const to = raw.compare_to ?? "";
  if (calendarDayNumber(from) === null) return { ...fallback, problem: { param: "compare_from", reason: "not_a_date" } };
  if (calendarDayNumber(to) === null) return { ...fallback, problem: { param: "compare_to", reason: "not_a_date" } };
  // The routes' own rule for a custom window (backwards, or not as many days as the range).
  const crossField = comparisonProblem({ compare: "custom", compare_from: from, compare_to: to }, daysBetween(range.from, range.to));
  if (crossField) return { ...fallback, problem: { param: crossField.param === "compare_from" ? "compare_from" : "compare_to", reason: "length" } };
  const comparison: Comparison = { kind: "custom", from, to };
  return { comparison, window: comparisonWindow(range, comparison), problem: null };
}

/**
 * The comparison as query parameters for an insights route or a link: nothing for the previous
 * period (the routes' default, so the URLs and cache keys of the default stay as they were).
 */
export function comparisonParams(comparison: Comparison): Record<string, string> {
  if (comparison.kind === "previous") return {};
  if (comparison.kind === "year") return { compare: "year" };
  return { compare: "custom", compare_from: comparison.from, compare_to: comparison.to };
}

const dayCount = (range: { from: string; to: string }) => {
  const days = daysBetween(range.from, range.to);
  return days === 1 ? "day" : `${days} days`;
};

/** An answer of an insights route with changes: its range and, once the route says it, the window it compared with. */
export type ComparedAnswer = DateRange & { compare?: { from: string; to: string } | null };

/** Which comparison a window is for a range (a window that is neither the previous period nor a year before is a custom one). */
export function kindOfWindow(range: DateRange, window: { from: string; to: string }): CompareKind {
  const previous = previousRange(range);
  if (window.from === previous.from && window.to === previous.to) return "previous";
  const year = yearBeforeRange(range);
  if (window.from === year.from && window.to === year.to) return "year";
  return "custom";
}

/** The window an answer's changes were counted against: the one it names, else the previous period (a route that takes no comparison). */
export const answerWindow = (answer: ComparedAnswer): DateRange => (answer.compare ? { ...answer.compare, tz: answer.tz } : previousRange(answer));

/**
 * "the previous 30 days (2 Oct – 31 Oct 2026)", "the same days a year before (1 Nov – 30 Nov
 * 2025)", "the chosen 30 days (1 Aug – 30 Aug 2026)": what a change on screen compares with, named
 * from the answer it was counted from.
 */
export function comparisonLabel(answer: ComparedAnswer): string {
  const window = answerWindow(answer);
  const dates = formatDateRange(window);
  switch (kindOfWindow(answer, window)) {
    case "previous":
      return `the previous ${dayCount(answer)} (${dates})`;
    case "year":
      return `the same days a year before (${dates})`;
    default:
      return `the chosen ${dayCount(window)} (${dates})`;
  }
}

/** The comparison's short name, for the header's button: "vs previous 30 days", "vs a year before", "vs 1 Aug – 30 Aug 2026". */
export function comparisonButtonLabel(range: DateRange, comparison: Comparison): string {
  if (comparison.kind === "previous") return `vs previous ${dayCount(range)}`;
  if (comparison.kind === "year") return "vs a year before";
  return `vs ${formatDateRange(comparison)}`;
}

/** What the comparison window is called in a chart's legend or a table's heading: "Previous period", "Same days a year before", "Chosen window". */
export function comparisonName(answer: ComparedAnswer): string {
  const kind = kindOfWindow(answer, answerWindow(answer));
  return kind === "previous" ? "Previous period" : kind === "year" ? "Same days a year before" : "Chosen window";
}
