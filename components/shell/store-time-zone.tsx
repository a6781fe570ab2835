"use client";
// A first visit without the viewer's time zone cookie: the browser's zone is stored, and when the
// page was drawn without it (in UTC), it is loaded again in that zone. The sign-in page stores it
// before anyone is signed in, so a signed-in page normally has it on its first render, and this
// happens at most once per browser. A relative range in the link (`range=30d`) waits for this too.
// Why a full reload and not router.refresh(): a refresh gives new props (the zone, the ranges and
// queries made from it) to every Suspense boundary still waiting to hydrate, and React hydrates one
// with the new props against the HTML drawn with the old, finds them different and throws a
// hydration error (#418) and draws it again from scratch. The overview, the page that streams
// longest, did so on first visits; waiting for the whole page to stream first left it in the wrong
// zone for tens of seconds. A reload replaces the page before any of that.
import { useEffect } from "react";
import { browserTimeZone, storeViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";

export function StoreBrowserTimeZone({ refresh }: { refresh: boolean }) {
  useEffect(() => {
    if (document.cookie.split(";").some((c) => c.trim().startsWith(`${VIEWER_TZ_COOKIE}=`))) return;
    const tz = browserTimeZone();
    storeViewerTimeZone(tz);
    // Only when the cookie was just stored: a zone the server cannot read leaves `refresh` true, and
    // the next load, which has the cookie, must not load again. In UTC the page is already right,
    // unless its link holds a relative range, which the server turns into days only once it knows
    // the zone (proxy.ts).
    const relative = ["range", "period"].some((name) => new URLSearchParams(window.location.search).has(name));
    if (refresh && (tz !== "UTC" || relative)) window.location.reload();
  }, [refresh]);
  return null;
}
