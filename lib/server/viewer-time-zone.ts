// The viewer's time zone on the server (lib/range/viewer-time-zone.ts): from its cookie, or null on a
// first visit, before the browser has said which zone it is in.
import "server-only";
import { cookies } from "next/headers";
import { parseViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";

/** The viewer's zone; a page without `tz` in its URL reads its range in it (UTC while it is null). */
export async function viewerTimeZoneCookie(): Promise<string | null> {
  return parseViewerTimeZone((await cookies()).get(VIEWER_TZ_COOKIE)?.value);
}
