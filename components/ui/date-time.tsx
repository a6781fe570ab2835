"use client";
// A time as people read it on every page: in the page's zone (the one the header names; see
// components/range/display-time-zone.tsx), "26 Nov 2026, 08:00", the exact instant on hover, or
// relative ("3 hours ago") once in the browser, which alone knows the reader's now (the server's
// HTML has the date, so hydration matches).
// Relative times read one clock for the page (pageNow below). It moves on every TICK_MS while a
// relative time is shown, and at once when a time later than it comes to be shown (a delivery listed
// by the poll a few seconds after the last tick) or when it stopped while none was shown: a clock read once and kept for a minute said of a
// test delivered 3 seconds ago that it would happen "in 3 seconds".
import { useLayoutEffect, useSyncExternalStore } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { formatDate, formatDateTime, formatExact, formatRelative, formatZone, MISSING } from "@/lib/format/format";

/** How often relative times move on while shown ("3 seconds ago" becomes "1 minute ago"). */
export const TICK_MS = 15_000;

/** A reading of the clock this recent is not read again to catch up with a newer instant. */
const FRESH_MS = 1_000;

/** The page's one clock for relative times: read when first needed, then on each tick or when something later than it is shown. */
const pageNow = (() => {
  let now: Date | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  const listeners = new Set<() => void>();
  const read = () => {
    now = new Date();
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      timer ??= setInterval(read, TICK_MS);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== undefined) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    // Stable between reads, as useSyncExternalStore needs: it changes only when the clock is read again.
    snapshot: () => (now ??= new Date()),
    /**
     * Reads the clock again when it lags: not read for a tick (no relative time was shown meanwhile,
     * so it stopped), or behind `happened` (an instant that happened, about to be shown) and not read
     * just now. One just read stays: the instant is then ahead of this browser's clock (the server's
     * runs ahead), which no reading mends, and it is said as "now".
     */
    catchUp(happened: number | null) {
      if (now === null) return read();
      const age = Date.now() - now.getTime();
      if (age < 0 || age >= TICK_MS || (happened !== null && happened > now.getTime() && age >= FRESH_MS)) read();
    },
  };
})();

/** The page's clock: the current time, only known in the browser (null while server rendering and hydrating), moving on every TICK_MS. */
export function usePageNow(): Date | null {
  return useSyncExternalStore(pageNow.subscribe, pageNow.snapshot, () => null);
}

/** The page's zone as people read it, for a column heading: "First seen (Berlin time)". */
export function ZoneName() {
  return <>{formatZone(useDisplayTimeZone())}</>;
}

/**
 * `relative` alone where only recency matters (a delivery "2 minutes ago"); `both` where the time
 * itself is read too (a mention: "27 Nov 2026, 14:03 · 2 days ago"). `tense`: whether the instant
 * happened (the default: never "in 3 seconds", even against a reader's clock behind the server's) or
 * is still to come (a delivery's next try: never "3 seconds ago").
 */
type Props = { iso: string | null | undefined; mode?: "datetime" | "date" | "relative" | "both"; tense?: "past" | "future" };

export function DateTime({ iso, mode = "datetime", tense = "past" }: Props) {
  const zone = useDisplayTimeZone();
  const now = usePageNow();
  const ms = iso ? Date.parse(iso) : Number.NaN;
  const relative = mode === "relative" || mode === "both";
  // Before paint: a clock that stopped, or a time that happened after its last reading (listed since), gets a fresh reading first.
  useLayoutEffect(() => {
    if (relative && now) pageNow.catchUp(tense === "past" && !Number.isNaN(ms) ? ms : null);
  }, [relative, tense, now, ms]);
  if (!iso || Number.isNaN(ms)) return <span>{MISSING}</span>;
  let text: string;
  if (mode === "date") text = formatDate(iso, zone);
  else if (mode === "relative" && now) text = formatRelative(iso, now, tense);
  else if (mode === "both" && now) text = `${formatDateTime(iso, zone)} · ${formatRelative(iso, now, tense)}`;
  else text = formatDateTime(iso, zone);
  return (
    <time dateTime={iso} title={formatExact(iso, zone)} className="nowrap">
      {text}
    </time>
  );
}
