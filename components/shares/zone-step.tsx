"use client";
// A shared page's first visit from a browser that has never been here: the browser's zone is kept in
// the viewer's cookie and the page loaded again, so its range (a relative one especially) is read in
// the viewer's own days, as a member's first page is (proxy.ts does this for members before any page;
// for a link only once it has opened, so a link that does not open is a 404 at once).
import { useEffect } from "react";
import { browserTimeZone, storeViewerTimeZone } from "@/lib/range/viewer-time-zone";

const STEP_KEY = "wa_share_zone_step";

export function ZoneStep() {
  useEffect(() => {
    const tz = browserTimeZone();
    // A browser that keeps no cookie (back here within 10 s) gets its zone in the link instead: never a loop.
    let recent = true;
    try {
      recent = Date.now() - Number(sessionStorage.getItem(STEP_KEY) ?? 0) < 10_000;
      sessionStorage.setItem(STEP_KEY, String(Date.now()));
    } catch {
      // No storage: the link carries the zone.
    }
    if (recent) {
      const url = new URL(window.location.href);
      url.searchParams.set("tz", tz);
      window.location.replace(url.toString());
      return;
    }
    storeViewerTimeZone(tz);
    window.location.reload();
  }, []);
  return (
    <main className="auth-page" id="main">
      <p className="muted">Opening the shared page…</p>
    </main>
  );
}
