"use client";
// Settings' time zone: the zone the dashboard counts days in when a link names none (every IANA zone
// this browser knows; this browser's own zone offered first). Saved in its cookie and applied at once:
// the server draws the pages again in it.
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { Card } from "@/components/ui/card";
import { useViewerTimeZone } from "@/lib/range/use-date-range";
import { browserTimeZone, storeViewerTimeZone, timeZoneChoices } from "@/lib/range/viewer-time-zone";

export function TimeZoneCard() {
  const current = useViewerTimeZone();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [zones] = useState(timeZoneChoices);
  const [browser] = useState(browserTimeZone);
  const id = useId();

  function choose(tz: string) {
    storeViewerTimeZone(tz);
    startTransition(() => router.refresh());
  }

  return (
    <Card title="Time zone" testId="time-zone-card">
      <div className="field" style={{ maxWidth: 360 }}>
        <label htmlFor={id}>Count days in</label>
        <select id={id} className="select" value={current} onChange={(e) => choose(e.target.value)} data-testid="time-zone-select" aria-describedby={`${id}-help`}>
          {zones.includes(current) ? null : <option value={current}>{current}</option>}
          {zones.map((z) => (
            <option key={z} value={z}>
              {z === browser ? `${z} (this browser)` : z}
            </option>
          ))}
        </select>
      </div>
      <p id={`${id}-help`} className="small muted" style={{ marginTop: 12 }} aria-live="polite">
        {pending ? "Applying…" : `Ranges such as “Today” or “7 days” start at midnight in ${current}.`} A link that names its own time zone (
        <code>tz=</code>) keeps it.
      </p>
      {current !== browser && (
        <button type="button" className="button button-secondary button-small" style={{ marginTop: 12 }} onClick={() => choose(browser)}>
          Use this browser&apos;s zone ({browser})
        </button>
      )}
    </Card>
  );
}
