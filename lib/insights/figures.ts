// The small arithmetic every insight's answer shares: percentages and means to one decimal, and how
// a bucket, a period and the asked window are written.
import type { InsightRange } from "./range";

/** `part` of `whole` in percentage points to one decimal (12.5 means 12.5%); null when `whole` is 0. */
export const percent = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part * 1000) / whole) / 10);

/** A mean to one decimal; null when there is nothing to average. */
export const mean = (sum: number, count: number): number | null => (count === 0 ? null : Math.round((sum * 10) / count) / 10);

/** A bucket's or period's first instant as ISO UTC. */
export const isoStart = (span: { startMs: number }) => new Date(span.startMs).toISOString();

/** The window an answer covers, as it was asked (dates in `tz`). */
export const windowOf = (range: InsightRange) => ({ from: range.from, to: range.to, tz: range.tz });
