"use client";
// A time as people read it on every page: in the page's zone (the one the header names; see
// components/range/display-time-zone.tsx), "26 Nov 2026, 08:00", the exact instant on hover, or
// relative ("3 hours ago") once in the browser, which alone knows the reader's now (the server's
// HTML has the date, so hydration matches).
import { useSyncExternalStore } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { formatDate, formatDateTime, formatExact, formatRelative, formatZone, MISSING } from "@/lib/format/format";

const noop = () => () => {};

/** The current time, only known in the browser (null while server rendering and hydrating). */
function useNow(): Date | null {
  return useSyncExternalStore(noop, nowSnapshot, () => null);
}
let cachedNow: Date | null = null;
const nowSnapshot = () => {
  // Stable within a minute so useSyncExternalStore does not see a new value on every read.
  if (!cachedNow || Date.now() - cachedNow.getTime() > 60_000) cachedNow = new Date();
  return cachedNow;
};

/** The page's zone as people read it, for a column heading: "First seen (Berlin time)". */
export function ZoneName() {
  return <>{formatZone(useDisplayTimeZone())}</>;
}

/** `relative` alone where only recency matters (a delivery "2 minutes ago"); `both` where the time itself is read too (a mention: "27 Nov 2026, 14:03 · 2 days ago"). */
type Props = { iso: string | null | undefined; mode?: "datetime" | "date" | "relative" | "both" };

export function DateTime({ iso, mode = "datetime" }: Props) {
  const zone = useDisplayTimeZone();
  const now = useNow();
  if (!iso || Number.isNaN(Date.parse(iso))) return <span>{MISSING}</span>;
  let text: string;
  if (mode === "date") text = formatDate(iso, zone);
  else if (mode === "relative" && now) text = formatRelative(iso, now);
  else if (mode === "both" && now) text = `${formatDateTime(iso, zone)} · ${formatRelative(iso, now)}`;
  else text = formatDateTime(iso, zone);
  return (
    <time dateTime={iso} title={formatExact(iso, zone)} className="nowrap">
      {text}
    </time>
  );
}
