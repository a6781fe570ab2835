"use client";
// Times in the viewer's own timezone with the zone named, the exact instant on hover, and an
// optional relative form. The server renders UTC; the browser switches to its zone right after
// hydration (useSyncExternalStore), so there is no hydration mismatch.
import { useSyncExternalStore } from "react";
import { formatDate, formatDateTime, formatDateTimeShort, formatExact, formatRelative, MISSING, zoneName } from "@/lib/format/format";

const noop = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function useTimeZone(): string {
  return useSyncExternalStore(noop, browserZone, () => "UTC");
}

/** The current time, only known in the browser (null while server rendering). */
function useNow(): Date | null {
  return useSyncExternalStore(noop, nowSnapshot, () => null);
}
let cachedNow: Date | null = null;
const nowSnapshot = () => {
  // Stable within a minute so useSyncExternalStore does not see a new value on every read.
  if (!cachedNow || Date.now() - cachedNow.getTime() > 60_000) cachedNow = new Date();
  return cachedNow;
};

/** The viewer's zone name for a column header: "First seen (CET)". */
export function ZoneName() {
  return <>{zoneName(useTimeZone())}</>;
}

type Props = { iso: string | null | undefined; mode?: "datetime" | "short" | "date" | "relative" };

export function DateTime({ iso, mode = "datetime" }: Props) {
  const zone = useTimeZone();
  const now = useNow();
  if (!iso || Number.isNaN(new Date(iso).getTime())) return <span>{MISSING}</span>;
  const exact = formatExact(iso, zone);
  let text: string;
  if (mode === "date") text = formatDate(iso, zone);
  else if (mode === "short") text = formatDateTimeShort(iso, zone);
  else if (mode === "relative" && now) text = formatRelative(iso, now);
  else text = formatDateTime(iso, zone);
  return (
    <time dateTime={iso} title={exact} className="nowrap">
      {text}
    </time>
  );
}
