"use client";
// A first visit without the viewer's time zone cookie: the browser's zone is stored, and when the
// page was drawn without it (in UTC), it is drawn again in that zone. The sign-in page stores it
// before anyone is signed in, so a signed-in page normally has it on its first render.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { browserTimeZone, storeViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";

/**
 * Runs `redraw` once the page has finished streaming and hydrating: after the window's load event
 * (the last streamed chunk is in) and then when the browser is idle (React's hydration work done).
 * A refresh any earlier gives new props to a Suspense boundary that is still waiting to hydrate, and
 * React throws a hydration error (#418) and draws that part again from scratch; the overview, the
 * page that streams longest, did so on every first visit.
 */
function afterHydration(redraw: () => void): () => void {
  let cancelled = false;
  let idle: number | undefined;
  const whenIdle = () => {
    if (cancelled) return;
    idle = typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(redraw, { timeout: 2000 }) : window.setTimeout(redraw, 200);
  };
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", whenIdle);
    if (idle !== undefined) (typeof window.cancelIdleCallback === "function" ? window.cancelIdleCallback : window.clearTimeout)(idle);
  };
}

export function StoreBrowserTimeZone({ refresh }: { refresh: boolean }) {
  const router = useRouter();
  useEffect(() => {
    const tz = browserTimeZone();
    if (!document.cookie.split(";").some((c) => c.trim().startsWith(`${VIEWER_TZ_COOKIE}=`))) storeViewerTimeZone(tz);
    // `refresh`: the server drew this page without the cookie; once redrawn with it, this is false.
    if (refresh && tz !== "UTC") return afterHydration(() => router.refresh());
  }, [refresh, router]);
  return null;
}
