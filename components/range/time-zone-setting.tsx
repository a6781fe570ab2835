"use client";
// Settings' time zone: the zone the dashboard counts days and shows times in when a link names none
// (every IANA zone this browser knows; this browser's own zone offered first). Saved in its cookie and
// applied at once: the server draws the pages again in it.
// What only the browser knows (its own zone, the zones its Intl lists) is shown once hydrated: the
// server's HTML has the chosen zone alone, so the first render in the browser is the same HTML (a
// server in UTC and a reader in Berlin, or two ICU versions' zone lists, made it differ before).
import { useRouter } from "next/navigation";
import { useId, useTransition } from "react";
import { Card } from "@/components/ui/card";
import { formatZone } from "@/lib/format/format";
import { useViewerTimeZone } from "@/lib/range/use-date-range";
import { browserTimeZone, storeViewerTimeZone, timeZoneChoices } from "@/lib/range/viewer-time-zone";
import { useHydrated } from "@/lib/ui/use-hydrated";

export function TimeZoneCard() {
  const current = useViewerTimeZone();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const hydrated = useHydrated();
  const zones = hydrated ? timeZoneChoices() : [current];
  const browser = hydrated ? browserTimeZone() : null;
  const id = useId();

  function choose(tz: string) {
    storeViewerTimeZone(tz);
    startTransition(() => router.refresh());
  }

  return (
    <Card title="Time zone" testId="time-zone-card">
      <div className="field" style={{ maxWidth: 360 }}>
        <label htmlFor={id}>Count days and show times in</label>
        <select
          id={id}
          className="select"
          value={current}
          onChange={(e) => choose(e.target.value)}
          data-testid="time-zone-select"
          aria-describedby={`${id}-help`}
        >
          {zones.includes(current) ? null : <option value={current}>{current}</option>}
          {zones.map((z) => (
            <option key={z} value={z}>
              {z === browser ? `${z} (this browser)` : z}
            </option>
          ))}
        </select>
      </div>
      <p id={`${id}-help`} className="small muted" style={{ marginTop: 12 }} aria-live="polite">
        {pending ? "Applying…" : `“Today”, “7 days” and the other ranges start at midnight ${formatZone(current)}, and times are shown in it.`} A shared link
        that names its own time zone keeps that zone.
      </p>
      {browser !== null && current !== browser && (
        <button type="button" className="button button-secondary button-small" style={{ marginTop: 12 }} onClick={() => choose(browser)}>
          Use this browser&apos;s zone ({formatZone(browser)})
        </button>
      )}
    </Card>
  );
}
