"use client";
// A first visit without the viewer's time zone cookie: the browser's zone is stored, and when the
// page was drawn without it (in UTC), it is drawn again in that zone. The sign-in page stores it
// before anyone is signed in, so a signed-in page normally has it on its first render.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { browserTimeZone, storeViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";

export function StoreBrowserTimeZone({ refresh }: { refresh: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (document.cookie.split(";").some((c) => c.trim().startsWith(`${VIEWER_TZ_COOKIE}=`))) return;
    const tz = browserTimeZone();
    storeViewerTimeZone(tz);
    if (refresh && tz !== "UTC") router.refresh();
  }, [refresh, router]);
  return null;
}
