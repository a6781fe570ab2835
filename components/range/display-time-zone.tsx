"use client";
// The zone every time on a signed-in page is shown in: the one the header's range names (the URL's
// `tz`, else the viewer's; UTC for a list whose dates have no zone), so a column heading, a cell, the
// timeline and the header never name two different zones. The server knows it too (the URL and the
// viewer's cookie), so the first render is already in it and hydration sees the same text.
import { createContext, use, type ReactNode } from "react";
import { useViewerTimeZone } from "@/lib/range/use-date-range";
import { useAppRange } from "./use-app-range";

const DisplayTimeZone = createContext<string | null>(null);

export function DisplayTimeZoneProvider({ children }: { children: ReactNode }) {
  const { range } = useAppRange();
  return <DisplayTimeZone value={range.tz}>{children}</DisplayTimeZone>;
}

/** The zone to show times in: the page's (see above), else the viewer's. */
export function useDisplayTimeZone(): string {
  const page = use(DisplayTimeZone);
  const viewer = useViewerTimeZone();
  return page ?? viewer;
}
