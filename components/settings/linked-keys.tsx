"use client";
// Settings' list of the keys that open this workspace (hints only), the one this session signed in
// with marked as such, and "Unlink" beside every other: a confirmation first, saying that everyone
// signed in with that key is signed out and that it then opens a workspace of its own. Keyboard: the
// confirmation takes focus when it opens and gives it back when kept; after an unlink, focus goes to
// the list's heading (the row it was on is gone) and the result is announced by the card's live region.
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { formatDate } from "@/lib/format/format";
import { OFFLINE, unlinkKey, WORKSPACE_KEY, type LinkedKey } from "@/lib/queries/workspace";

/** What unlinking `hint` does, in the confirmation's words. */
export function unlinkConsequences(hint: string): string {
  return `Everyone signed in with ${hint} is signed out at once, and it stops opening this workspace: signing in with it again starts a workspace of its own, with none of this one's history, notes, views or alerts.`;
}

export function LinkedKeys({ keys, onUnlinked }: { keys: LinkedKey[]; onUnlinked: (message: string) => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <div>
      <h3 className="field-label" id={`${id}-keys`} ref={heading} tabIndex={-1}>
        Keys of this workspace
      </h3>
      <ul className="linked-keys" aria-labelledby={`${id}-keys`} data-testid="linked-keys">
        {keys.map((k) => (
          <LinkedKeyItem
            key={k.id}
            linked={k}
            onUnlinked={(message) => {
              onUnlinked(message);
              heading.current?.focus();
            }}
          />
        ))}
      </ul>
    </div>
  );
}

function LinkedKeyItem({ linked, onUnlinked }: { linked: LinkedKey; onUnlinked: (message: string) => void }) {
  const tz = useDisplayTimeZone();
  const id = useId();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unlinkButton = useRef<HTMLButtonElement>(null);

  async function unlink(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await unlinkKey(linked);
      await queryClient.invalidateQueries({ queryKey: WORKSPACE_KEY });
      onUnlinked(`Key ${linked.key_hint} unlinked: everyone signed in with it was signed out.`);
    } catch (e) {
      setError(e instanceof Error ? e.message : OFFLINE);
      setBusy(false);
    }
  }

  return (
    <li data-testid="linked-key">
      <div className="linked-key-row">
        <span className="mono">{linked.key_hint}</span>
        <span className="small muted">linked {formatDate(linked.linked_at, tz)}</span>
        {linked.current ? (
          <span className="badge badge-neutral" data-testid="linked-key-current">
            You are signed in with this key
          </span>
        ) : (
          !confirming && (
            <button
              ref={unlinkButton}
              type="button"
              className="button button-small button-danger"
              aria-label={`Unlink key ${linked.key_hint}`}
              onClick={() => setConfirming(true)}
              data-testid="unlink-key"
            >
              Unlink
            </button>
          )
        )}
      </div>
      {confirming && (
        <div className="linked-key-confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <p className="small" id={`${id}-confirm`} data-testid="unlink-key-consequences">
            <strong>Unlink {linked.key_hint}?</strong> {unlinkConsequences(linked.key_hint)}
          </p>
          <div className="card-actions">
            <button
              type="button"
              className="button button-small button-danger"
              // The confirmation's first control: where focus lands when it opens.
              autoFocus
              disabled={busy}
              onClick={() => void unlink()}
              data-testid="unlink-key-confirm"
            >
              {busy ? "Unlinking…" : "Yes, unlink it"}
            </button>
            <button
              type="button"
              className="button button-small button-secondary"
              disabled={busy}
              onClick={() => {
                setConfirming(false);
                setError(null);
                requestAnimationFrame(() => unlinkButton.current?.focus());
              }}
            >
              Keep it
            </button>
          </div>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
