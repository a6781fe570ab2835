// The viewer's time zone: chosen in Settings, else the browser's, kept in a cookie (a preference, not
// a secret: not httpOnly, not part of the session) that the signed-in layout reads on the server, so
// the first render already counts days in the viewer's zone. A URL's `tz` wins over it.
import { isTimeZoneName } from "@/lib/data-api/params";

export const VIEWER_TZ_COOKIE = "viewer_tz";

/** The cookie's zone when it names a real one, else null. */
export function parseViewerTimeZone(value: string | null | undefined): string | null {
  return value && isTimeZoneName(value) ? value : null;
}

/** The browser's own zone (UTC when it cannot tell). */
export function browserTimeZone(): string {
  return parseViewerTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
}

/** Stores the viewer's zone for a year (in the browser). */
export function storeViewerTimeZone(tz: string): void {
  document.cookie = `${VIEWER_TZ_COOKIE}=${encodeURIComponent(tz)}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** Every zone the viewer can choose: the runtime's IANA names, with UTC first. */
export function timeZoneChoices(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}
