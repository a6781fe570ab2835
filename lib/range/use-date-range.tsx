"use client";
// The app's date range in a client component: read from the URL (`from`, `to`, `tz`) through nuqs,
// resolved against the viewer's time zone (given by the layout: the one chosen in Settings, else the
// browser's), and set by the header's range control. Every widget and link reads the range here.
import { useQueryStates } from "nuqs";
import { createContext, useContext, useMemo, useState, type ReactNode } from "react";
import { dateRangeSearchParams, resolveDateRange, type DateRange, type ResolvedRange } from "./date-range";

const ViewerTimeZone = createContext<string>("UTC");

/** Provides the viewer's time zone: the zone a URL without `tz` is read in. */
export function ViewerTimeZoneProvider({ tz, children }: { tz: string; children: ReactNode }) {
  return <ViewerTimeZone.Provider value={tz}>{children}</ViewerTimeZone.Provider>;
}

export const useViewerTimeZone = () => useContext(ViewerTimeZone);

export type DateRangeState = ResolvedRange & {
  /** Today as of the page's first render, the instant the range and its presets are read at. */
  nowMs: number;
  /** Puts a range in the URL (null: removes it, back to the page's default). */
  setRange: (range: DateRange | null) => Promise<URLSearchParams>;
};

export function useDateRange(): DateRangeState {
  const viewerTz = useViewerTimeZone();
  const [raw, setRaw] = useQueryStates(dateRangeSearchParams);
  // "Today" as of the page's first render: a view left open past midnight keeps its range.
  const [nowMs] = useState(() => Date.now());
  const resolved = useMemo(() => resolveDateRange(raw, viewerTz, nowMs), [raw, viewerTz, nowMs]);
  return {
    ...resolved,
    nowMs,
    setRange: (range) => setRaw(range ?? { from: null, to: null, tz: null }),
  };
}
