"use client";
// Settings' weekly digest: where it goes (one of the destinations, or never), when the next one is
// sent (Monday 09:00 in the workspace's time zone, said in that zone), and what it holds. Saving is
// announced in the card's live region.
import { useId, useState, type FormEvent } from "react";
import { Card } from "@/components/ui/card";
import { formatDateTime, formatZone } from "@/lib/format/format";
import { useAlertWrites, useDestinations, useDigest } from "@/lib/queries/alerts";
import { problemText } from "./alert-text";
import styles from "./alerts.module.css";

const NEVER = "";

export function DigestCard() {
  const id = useId();
  const digest = useDigest();
  const destinations = useDestinations();
  const { setDigest } = useAlertWrites();
  // The choice being edited; null while it is the saved one.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const saved = digest.data?.destination_id ?? NEVER;
  const choice = draft ?? saved;
  const list = destinations.data ?? [];

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setStatus("");
    try {
      const next = await setDigest.mutateAsync(choice === NEVER ? null : choice);
      setDraft(null);
      const to = list.find((d) => d.id === next.destination_id)?.name;
      setStatus(to ? `The weekly digest goes to ${to}.` : "The weekly digest is off.");
    } catch (e) {
      setError(problemText(e, "digest"));
    }
  }

  const data = digest.data;
  return (
    <Card
      title="Weekly digest"
      level={3}
      testId="digest-card"
      description="Every Monday at 09:00 in the workspace's time zone: the week against the one before, the score and rank change, the AI platforms from mentions to conversions, notable mentions and the team's notes, with links into the dashboard."
    >
      {digest.error ? (
        <p className="field-error" role="alert">
          {problemText(digest.error, "digest")}
        </p>
      ) : !data ? (
        <p className="small muted">Loading…</p>
      ) : (
        <form className={styles.form} onSubmit={(e) => void save(e)} noValidate data-testid="digest-form">
          <div className={styles.inline}>
            <div className="field">
              <label htmlFor={`${id}-to`}>Send it to</label>
              <select
                id={`${id}-to`}
                className="select"
                value={choice}
                onChange={(e) => setDraft(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                data-testid="digest-destination"
              >
                <option value={NEVER}>Never (off)</option>
                {list.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button-secondary" disabled={setDigest.isPending || choice === saved} data-testid="digest-save">
              {setDigest.isPending ? "Saving…" : "Save"}
            </button>
          </div>
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
          <p className="small muted" data-testid="digest-next">
            {data.destination_id && data.next_at
              ? `Next digest: ${formatDateTime(data.next_at, data.time_zone)} (${formatZone(data.time_zone)}).`
              : data.destination_id
                ? "The next digest is sent on Monday at 09:00."
                : "No digest is sent."}
          </p>
        </form>
      )}
      <p className={`small ${styles.statusLine}`} role="status" aria-live="polite" data-testid="digest-status">
        {status}
      </p>
    </Card>
  );
}
