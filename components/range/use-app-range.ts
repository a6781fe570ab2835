"use client";
// The range as the header and the pages see it, read from the URL (`from`, `to`, `tz`): on the list
// pages the list's reading (lib/range/list-range.ts: no range is all time, dates without `tz` are UTC
// days, datetimes stay instants), elsewhere the app's (lib/range/date-range.ts: no range is the
// default 30 days, dates without `tz` are the viewer's days). Setting a range is a new history entry
// (Back returns to the previous range) and goes back to a list's first page.
import { parseAsString, useQueryStates } from "nuqs";
import { usePathname } from "next/navigation";
import { useMemo, useState } from "react";
import { dateRangeSearchParams, resolveDateRange, type DateRange, type RangeProblems } from "@/lib/range/date-range";
import { isListPath, resolveListRange } from "@/lib/range/list-range";
import { useViewerTimeZone } from "@/lib/range/use-date-range";
import { isRangePresetId } from "@/lib/ui/page-params";

// `range` is a relative range (`range=7d`): proxy.ts turns a good one into `from`/`to` before the page,
// so one still in the URL is a value that is not a preset (or beside dates, which win).
const headerParams = { ...dateRangeSearchParams, range: parseAsString, offset: parseAsString };

export type AppRange = {
  range: DateRange;
  explicit: boolean;
  problems: RangeProblems;
  /** The URL's ends that are instants rather than dates (lists only). */
  instants: { from?: string; to?: string };
  /** The page is a list: no range means all time there, and the ranges have no longest span. */
  listPage: boolean;
  /** The URL's own values (null when absent), for fields that show what was given. */
  raw: { from: string | null; to: string | null; tz: string | null };
  /** A relative range in the URL that is not a preset (e.g. `range=8d`): shown on the range as a bad `from` is. */
  badRelative: string | null;
  /** Today as of the page's first render (a view left open past midnight keeps its presets). */
  nowMs: number;
  setRange: (range: DateRange | null) => void;
};

export function useAppRange(): AppRange {
  const pathname = usePathname();
  const viewerTz = useViewerTimeZone();
  const [values, setValues] = useQueryStates(headerParams, { history: "push" });
  const [nowMs] = useState(() => Date.now());
  const listPage = isListPath(pathname);
  const raw = { from: values.from, to: values.to, tz: values.tz };
  const resolved = useMemo(() => {
    const input = { from: values.from, to: values.to, tz: values.tz };
    return listPage ? resolveListRange(input, nowMs, viewerTz) : { ...resolveDateRange(input, viewerTz, nowMs), instants: {} };
  }, [listPage, values.from, values.to, values.tz, viewerTz, nowMs]);
  return {
    range: resolved.range,
    explicit: resolved.explicit,
    problems: resolved.problems,
    instants: resolved.instants,
    listPage,
    raw,
    badRelative: values.range !== null && !isRangePresetId(values.range) && !values.from && !values.to ? values.range : null,
    nowMs,
    setRange: (range) => void setValues(range ? { ...range, range: null, offset: null } : { from: null, to: null, tz: null, range: null, offset: null }),
  };
}
