"use client";
// Settings' "Activity": who changed what in this workspace's settings (watching, keys, alert
// destinations and rules, the weekly digest), newest first, as a compact table: when (relative, the
// exact time on hover and in the zone's words below), which key (its hint; the one this session
// signed in with says so) and what; in a narrow card each row stacks (globals.css), the table's roles
// written out so it stays a table for screen readers. The latest few are shown, more on request.
// Loading, empty and failed states are said in words; the table has a caption and column headers.
import { useState } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { activityActionText } from "@/lib/activity/actions";
import { isDataApiError } from "@/lib/data-api/errors";
import { formatDateTime, formatNumber } from "@/lib/format/format";
import { useActivity, type ActivityJson } from "@/lib/queries/activity";
import { loadErrorText } from "@/lib/ui/messages";

/** Rows shown at first, and added by each "Show more". */
export const ACTIVITY_PAGE = 20;

function When({ at }: { at: string }) {
  const tz = useDisplayTimeZone();
  return (
    <>
      <DateTime iso={at} mode="relative" />
      <span className="small muted activity-exact">{formatDateTime(at, tz)}</span>
    </>
  );
}

function What({ entry }: { entry: ActivityJson }) {
  return (
    <>
      {activityActionText(entry.action)}
      {entry.subject && (
        <>
          {": "}
          <span className={entry.action.startsWith("key.") ? "mono" : undefined}>{entry.subject}</span>
        </>
      )}
    </>
  );
}

export function ActivityCard({ keyHint }: { keyHint: string }) {
  const activity = useActivity();
  const [shown, setShown] = useState(ACTIVITY_PAGE);
  const rows = activity.data;
  const more = rows ? rows.length - shown : 0;

  return (
    <Card
      title="Activity"
      testId="activity-card"
      description="Who changed this workspace's settings, and what: watching, keys, alert destinations and rules, and the weekly digest. Each change names the key it was made with. Kept 90 days."
    >
      {activity.error ? (
        <p className="field-error" role="alert" data-testid="activity-error">
          {loadErrorText(isDataApiError(activity.error) ? activity.error : { status: 0 }, "this workspace's activity")}
        </p>
      ) : !rows ? (
        <p className="small muted" data-testid="activity-loading">
          Loading…
        </p>
      ) : rows.length === 0 ? (
        <p className="small muted" data-testid="activity-empty">
          No changes yet. Turning watching on, linking a key, or adding an alert destination, a rule or the weekly digest shows here, with the key it was done
          with.
        </p>
      ) : (
        <div className="activity-list">
          <table className="table activity-table" role="table" data-testid="activity-table">
            <caption className="visually-hidden">Changes to this workspace&apos;s settings, newest first</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  When
                </th>
                <th scope="col" role="columnheader">
                  Key
                </th>
                <th scope="col" role="columnheader">
                  What
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {rows.slice(0, shown).map((entry, i) => (
                <tr key={`${entry.at}-${i}`} role="row" data-testid="activity-row">
                  <td role="cell">
                    <When at={entry.at} />
                  </td>
                  <td role="cell">
                    <span className="mono">{entry.key_hint}</span>
                    {entry.key_hint === keyHint && <span className="small muted activity-exact">this key</span>}
                  </td>
                  <td role="cell">
                    <What entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {more > 0 && (
            <div className="card-actions" style={{ marginTop: 12 }}>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => setShown((n) => n + ACTIVITY_PAGE)}
                data-testid="activity-more"
              >
                Show {formatNumber(Math.min(more, ACTIVITY_PAGE))} older of {formatNumber(more)}
              </button>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
