"use client";
// Stores the browser's zone in the viewer's cookie when there is none yet: on the sign-in page, so a
// signed-in page has it on its first render, and on a signed-in page opened with a zone in its link
// (which proxy.ts lets through without its first-visit step: the link's zone wins there), for the
// next page. No reload: a page without the cookie never renders at all without a zone (proxy.ts),
// and reloading a page mid-stream cut its streaming widgets off (React #419).
import { useEffect } from "react";
import { browserTimeZone, storeViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";

export function StoreBrowserTimeZone() {
  useEffect(() => {
    if (document.cookie.split(";").some((c) => c.trim().startsWith(`${VIEWER_TZ_COOKIE}=`))) return;
    storeViewerTimeZone(browserTimeZone());
  }, []);
  return null;
}
