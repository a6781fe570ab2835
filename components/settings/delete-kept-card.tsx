"use client";
// Settings' "Delete everything kept": what the dashboard keeps for this workspace (history, daily
// figures, notes, saved views, alerts, the key kept for watching, the keys' links) deleted for good,
// after a confirmation that names what goes, counted from the workspace's answer, and asks for the
// word "delete" typed. Then every session of the workspace ends, this one included, and the browser
// lands on the sign-in page saying so. Keyboard: the confirmation's heading takes focus when it opens,
// Escape or "Keep everything" closes it and gives focus back to the button that opened it; a missing
// word or a failure is said next to the field, in a live region.
import { useId, useRef, useState, type FormEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { formatCount, formatDate } from "@/lib/format/format";
import { getQueryClient } from "@/lib/queries/get-query-client";
import { hardNavigate } from "@/lib/ui/hard-navigate";
import { deleteEverythingKept, OFFLINE, useWorkspaceInfo, type WorkspaceInfo } from "@/lib/queries/workspace";

/** The word to type: the same the route asks for. */
const CONFIRM_WORD = "delete";

/** What deleting everything deletes, one line each, in the confirmation's words (a kind with nothing kept is left out). */
export function whatGoes(info: WorkspaceInfo, tz: string): string[] {
  const { kept } = info;
  const lines = [
    info.history_since
      ? `The history since ${formatDate(info.history_since, tz)}: ${formatCount(kept.snapshots, "snapshot")} of the score and ranking, and the daily figures kept`
      : "The daily figures kept (there is no score or ranking history yet)",
  ];
  if (kept.notes > 0) lines.push(formatCount(kept.notes, "note"));
  if (kept.views > 0) lines.push(formatCount(kept.views, "saved view"));
  if (kept.alert_destinations > 0 || kept.alert_rules > 0) {
    lines.push(
      `${formatCount(kept.alert_destinations, "alert destination")} and ${formatCount(kept.alert_rules, "alert rule")}, with their deliveries and the weekly digest`,
    );
  }
  if (kept.shares > 0) lines.push(`${formatCount(kept.shares, "share link")}: they stop opening at once`);
  if (kept.kept_days > 0)
    lines.push(`The insights' figures of closed days kept (${formatCount(kept.kept_days, "figure")}): read again from Workspace Analytics when next asked`);
  if (kept.kept_key) lines.push("The key kept for watching: nothing is collected in the background any more");
  if (kept.tokens > 0)
    lines.push(`${formatCount(kept.tokens, "access token")}: the scripts and assistants using ${kept.tokens === 1 ? "it" : "them"} stop working`);
  if (kept.activity > 0) lines.push(`The activity list: ${formatCount(kept.activity, "change")} and the keys that made them`);
  const others = info.linked_keys.filter((k) => !k.current).length;
  lines.push(
    others > 0
      ? `The links of this workspace's ${formatCount(others + 1, "key")}: each opens a new, empty workspace when next used`
      : "The link of your key: it opens a new, empty workspace when next used",
  );
  return lines;
}

export function DeleteKeptCard() {
  const id = useId();
  const tz = useDisplayTimeZone();
  const query = useWorkspaceInfo();
  const info = query.data ?? null;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  function close(): void {
    setOpen(false);
    setTyped("");
    setError(null);
    requestAnimationFrame(() => opener.current?.focus());
  }

  async function confirm(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (typed.trim().toLowerCase() !== CONFIRM_WORD) {
      setError(`Type "${CONFIRM_WORD}" to confirm: nothing has been deleted.`);
      return;
    }
    setError(null);
    setDeleting(true);
    try {
      await deleteEverythingKept();
    } catch (e) {
      setError(e instanceof Error ? e.message : OFFLINE);
      setDeleting(false);
      return;
    }
    // The session has ended: nothing this tab holds belongs to anyone any more.
    getQueryClient().clear();
    // The session is gone with the workspace.
    hardNavigate("/sign-in?reason=deleted");
  }

  return (
    <Card
      title="Delete everything kept"
      testId="delete-kept-card"
      description="Everything this dashboard keeps for the workspace, for everyone who uses its keys. Your workspace's own data (its visitors, mentions and score) is not touched."
    >
      {query.error && (
        <p className="field-error" role="alert">
          {query.error.message}
        </p>
      )}
      {!open ? (
        <div className="card-actions">
          <button
            ref={opener}
            type="button"
            className="button button-danger"
            disabled={!info}
            onClick={() => {
              setOpen(true);
              requestAnimationFrame(() => heading.current?.focus());
            }}
            data-testid="delete-kept-open"
          >
            Delete everything kept…
          </button>
        </div>
      ) : (
        info && (
          <form
            className="delete-kept-confirm"
            onSubmit={(e) => void confirm(e)}
            onKeyDown={(e) => {
              if (e.key === "Escape" && !deleting) {
                e.preventDefault();
                close();
              }
            }}
            noValidate
            aria-labelledby={`${id}-title`}
            data-testid="delete-kept-confirm"
          >
            <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
              Delete everything kept for this workspace?
            </h3>
            <p className="small">This deletes, for everyone who uses this workspace&apos;s keys:</p>
            <ul className="delete-kept-list" data-testid="delete-kept-list">
              {whatGoes(info, tz).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="small">
              <strong>Everyone signed in to this workspace is signed out, you included. This cannot be undone.</strong>
            </p>
            <label className="field-label" htmlFor={`${id}-word`}>
              Type &quot;{CONFIRM_WORD}&quot; to confirm
            </label>
            <div className="link-key-row">
              <input
                id={`${id}-word`}
                className="input"
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                data-testid="delete-kept-word"
              />
              <button type="submit" className="button button-danger" disabled={deleting} data-testid="delete-kept-submit">
                {deleting ? "Deleting…" : "Delete everything"}
              </button>
              <button type="button" className="button button-secondary" disabled={deleting} onClick={close}>
                Keep everything
              </button>
            </div>
            {error && (
              <p id={`${id}-error`} className="field-error" role="alert" data-testid="delete-kept-error">
                {error}
              </p>
            )}
          </form>
        )
      )}
    </Card>
  );
}
