// The viewer's time zone on the server (lib/range/viewer-time-zone.ts): from its cookie, or null on a
// first visit, before the browser has said which zone it is in.
import "server-only";
import { cookies } from "next/headers";
import { parseViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";

export async function viewerTimeZoneCookie(): Promise<string | null> {
  return parseViewerTimeZone((await cookies()).get(VIEWER_TZ_COOKIE)?.value);
}

/** The zone a page without `tz` in its URL is read in: the viewer's, UTC until it is known. */
export async function viewerTimeZone(): Promise<string> {
  return (await viewerTimeZoneCookie()) ?? "UTC";
}
