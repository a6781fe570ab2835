"use client";
// Settings' weekly digest: where it goes (one of the destinations, or never), when the next one is
// sent (Monday 09:00 in the workspace's time zone, said in that zone and, when the reader's differs,
// in the reader's too), "Preview" (the latest full week as its receivers read it, and as an e-mail in
// a sandboxed frame) and "Send now" (one delivery of it, then listed under Deliveries), so nobody
// waits a week to see one. While the workspace is not watched (the digest is read with its kept key)
// the form offers to start watching with the choice (watch-offer.tsx). What its links open: the
// dashboard's pages (for recipients who sign in with the key), or one of the workspace's share links
// that has not expired (for recipients without the key: only the figures of the shared page then link,
// to the shared page for the digest's week). Results are announced in the card's live region, a
// refused field's reason on that field.
import { useId, useRef, useState, type FormEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { formatDateRange } from "@/lib/format/format";
import { usePageNow } from "@/components/ui/date-time";
import { useAlertWrites, useDestinations, useDigest, useDigestPreview } from "@/lib/queries/alerts";
import { useShareLinks, type ShareLink } from "@/lib/queries/shares";
import { isSharedPage, SHARED_PAGE_TITLES } from "@/lib/shares/pages";
import { digestDestinationLabel, digestTimeText, fieldOf, problemText } from "./alert-text";
import styles from "./alerts.module.css";
import { useWatchOffer, WatchOffer } from "./watch-offer";

const NEVER = "";
/** The links' choice for the dashboard's pages (no share link). */
const DASHBOARD = "";

/** A share link as the links' choice names it: "Share link: AI traffic (AI platforms)". */
const shareLabel = (link: ShareLink) => `Share link: ${link.name} (${isSharedPage(link.path) ? SHARED_PAGE_TITLES[link.path] : link.path})`;

export function DigestCard({ onSent }: { onSent: (deliveryId: string) => void }) {
  const id = useId();
  const tz = useDisplayTimeZone();
  const digest = useDigest();
  const destinations = useDestinations();
  const { setDigest, sendDigest } = useAlertWrites();
  const watch = useWatchOffer();
  const shares = useShareLinks();
  const pageNow = usePageNow();
  // The choices being edited; null while they are the saved ones.
  const [draft, setDraft] = useState<string | null>(null);
  const [shareDraft, setShareDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Which field the error is about: the links' choice, or the form (shown under it).
  const [errorField, setErrorField] = useState<"share_id" | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [previewing, setPreviewing] = useState(false);
  const preview = useDigestPreview(previewing);
  // Which of the form's buttons sent it: the first unless "Save only" was clicked (Enter is the first's).
  const withWatching = useRef(true);
  const saved = digest.data?.destination_id ?? NEVER;
  const choice = draft ?? saved;
  const savedShare = digest.data?.share_id ?? DASHBOARD;
  // Without a destination there is no digest, nor links to choose.
  const shareChoice = choice === NEVER ? DASHBOARD : (shareDraft ?? savedShare);
  const dirty = choice !== saved || shareChoice !== savedShare;
  const list = destinations.data ?? [];
  // The links that still open (and the one saved, whatever this browser's clock says).
  const shareList = (shares.data ?? []).filter(
    (l) => l.id === savedShare || l.expires_at === null || pageNow === null || Date.parse(l.expires_at) > pageNow.getTime(),
  );
  const offer = watch.offered && choice !== NEVER;
  const nameOf = (destinationId: string | null) => list.find((d) => d.id === destinationId)?.name;

  const shareName = (shareId: string | null) => shareList.find((l) => l.id === shareId)?.name;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setErrorField(null);
    setStatus("");
    const watchToo = offer && withWatching.current;
    withWatching.current = true;
    if (watchToo) {
      try {
        await watch.start();
      } catch (e) {
        setError(`Watching could not be turned on${dirty ? ", so the digest was not changed" : ""}. ${e instanceof Error ? e.message : ""}`.trim());
        return;
      }
      if (!dirty) {
        setStatus(`Watching is on: the weekly digest goes to ${nameOf(saved) ?? "its destination"}.`);
        return;
      }
    }
    try {
      const next = await setDigest.mutateAsync({
        destinationId: choice === NEVER ? null : choice,
        // Off, the links' choice goes with the digest: nothing to send.
        ...(choice === NEVER ? {} : { shareId: shareChoice === DASHBOARD ? null : shareChoice }),
        timeZone: tz,
      });
      setDraft(null);
      setShareDraft(null);
      const to = nameOf(next.destination_id);
      const through = shareName(next.share_id);
      setStatus(
        `${watchToo ? "Watching is on. " : ""}${
          to ? `The weekly digest goes to ${to}${through ? `, its links through the share link ${through}` : ""}.` : "The weekly digest is off."
        }`,
      );
    } catch (e) {
      if (watchToo) setStatus("Watching is on.");
      setErrorField(fieldOf(e, ["share_id"] as const));
      setError(problemText(e, "digest"));
    }
  }

  async function sendNow() {
    setSendError(null);
    setStatus("");
    try {
      const sent = await sendDigest.mutateAsync();
      if (sent.delivery_id) onSent(sent.delivery_id);
      setStatus(`The weekly digest of ${formatDateRange(sent.week)} was sent to ${nameOf(saved) ?? "its destination"}: its delivery shows under Deliveries.`);
    } catch (e) {
      setSendError(problemText(e, "digest"));
    }
  }

  const data = digest.data;
  const busy = setDigest.isPending || watch.starting;
  const formError = error && errorField === null ? error : null;
  const shareError = error && errorField === "share_id" ? error : null;
  const noShares = shares.isSuccess && shareList.length === 0;
  // A link with a password opens only with it: the recipients must be given it some other way.
  const chosenNeedsPassword = shareList.find((l) => l.id === shareChoice)?.password === true;
  const linksHelp = [
    shareError ? `${id}-links-error` : null,
    `${id}-links-help`,
    noShares || shares.error ? `${id}-links-none` : null,
    chosenNeedsPassword ? `${id}-links-password` : null,
  ]
    .filter(Boolean)
    .join(" ");
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
        <div className="stack" style={{ gap: 16 }}>
          <form className={styles.form} onSubmit={(e) => void save(e)} noValidate data-testid="digest-form">
            <div className={styles.inline}>
              <div className="field">
                <label htmlFor={`${id}-to`}>Send it to</label>
                <select
                  id={`${id}-to`}
                  className="select"
                  value={choice}
                  onChange={(e) => setDraft(e.target.value)}
                  aria-invalid={formError ? true : undefined}
                  aria-describedby={formError ? `${id}-error` : undefined}
                  data-testid="digest-destination"
                >
                  <option value={NEVER}>Never (off)</option>
                  {list.map((d) => (
                    <option key={d.id} value={d.id}>
                      {digestDestinationLabel(d)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="field">
              <label htmlFor={`${id}-links`}>Links in the digest</label>
              <select
                id={`${id}-links`}
                className="select"
                value={shareChoice}
                onChange={(e) => {
                  setShareDraft(e.target.value);
                  if (errorField === "share_id") setError(null);
                }}
                disabled={choice === NEVER || noShares}
                aria-invalid={shareError ? true : undefined}
                aria-describedby={linksHelp}
                data-testid="digest-links"
              >
                <option value={DASHBOARD}>Dashboard pages (recipients sign in with the key)</option>
                {shareList.map((l) => (
                  <option key={l.id} value={l.id}>
                    {shareLabel(l)}
                  </option>
                ))}
              </select>
              {shareError && (
                <p id={`${id}-links-error`} className="field-error" role="alert">
                  {shareError}
                </p>
              )}
              <p id={`${id}-links-help`} className="small muted">
                For recipients without the key: only the figures of the shared page get a link, and it opens the shared page for the digest&apos;s week.
              </p>
              {chosenNeedsPassword && (
                <p id={`${id}-links-password`} className="small" data-testid="digest-links-password">
                  This link asks for its password: give it to the digest&apos;s recipients some other way.
                </p>
              )}
              {noShares && (
                <p id={`${id}-links-none`} className="small muted" data-testid="digest-links-none">
                  Make a share link from a page&apos;s Share button to offer one here.
                </p>
              )}
              {shares.error && !noShares && (
                <p id={`${id}-links-none`} className="small muted" data-testid="digest-links-none">
                  The share links could not be read: {shares.error.message}
                </p>
              )}
            </div>
            {!offer && (
              <div className={styles.actions}>
                <button type="submit" className="button button-secondary" disabled={busy || !dirty} data-testid="digest-save">
                  {setDigest.isPending ? "Saving…" : "Save"}
                </button>
              </div>
            )}
            {offer && (
              <>
                <WatchOffer id={`${id}-watch`} what="digest" paused={watch.paused} />
                <div className="card-actions" style={{ flexWrap: "wrap" }}>
                  <button type="submit" className="button" disabled={busy} aria-describedby={`${id}-watch`} data-testid="digest-save">
                    {watch.starting
                      ? "Starting to watch…"
                      : setDigest.isPending
                        ? "Saving…"
                        : `${watch.paused ? "Watch again" : "Start watching"}${dirty ? " and save" : ""}`}
                  </button>
                  {dirty && (
                    <button
                      type="submit"
                      className="button button-secondary"
                      disabled={busy}
                      onClick={() => (withWatching.current = false)}
                      data-testid="digest-save-only"
                    >
                      Save only
                    </button>
                  )}
                </div>
              </>
            )}
            {formError && (
              <p id={`${id}-error`} className="field-error" role="alert">
                {formError}
              </p>
            )}
            <p className="small muted" data-testid="digest-next">
              {data.destination_id && data.next_at
                ? `Next digest: ${digestTimeText(data.next_at, data.time_zone, tz)}.`
                : data.destination_id
                  ? "The next digest is sent on Monday at 09:00."
                  : "No digest is sent."}
            </p>
          </form>

          <div className={styles.actions}>
            <button
              type="button"
              className="button button-small button-secondary"
              aria-expanded={previewing}
              aria-controls={`${id}-preview`}
              onClick={() => setPreviewing((open) => !open)}
              data-testid="digest-preview-toggle"
            >
              {previewing ? "Hide the preview" : "Preview"}
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={saved === NEVER || sendDigest.isPending}
              aria-describedby={saved === NEVER ? `${id}-send-help` : undefined}
              onClick={() => void sendNow()}
              data-testid="digest-send"
            >
              {sendDigest.isPending ? "Sending…" : "Send now"}
            </button>
            <p id={`${id}-send-help`} className="small muted">
              {saved === NEVER
                ? "Choose where the digest goes and save, then send one now."
                : `Sends the latest full week to ${nameOf(saved) ?? "its destination"} now; the Monday digest still goes.`}
            </p>
          </div>
          {sendError && (
            <p className="field-error" role="alert" data-testid="digest-send-error">
              {sendError}
            </p>
          )}
          {previewing && (
            <section id={`${id}-preview`} className={styles.digestPreview} aria-labelledby={`${id}-preview-title`} data-testid="digest-preview">
              {preview.error ? (
                <p className="field-error" role="alert">
                  {problemText(preview.error, "digest")}
                </p>
              ) : !preview.data ? (
                <p className="small muted" role="status">
                  Reading the week…
                </p>
              ) : (
                <>
                  <h4 id={`${id}-preview-title`} data-testid="digest-preview-subject">
                    {preview.data.subject}
                  </h4>
                  <p className="small muted">
                    The week of {formatDateRange(preview.data.week)} against the week before, as “Send now” sends it.
                    {preview.data.sends_at
                      ? ` The one on ${digestTimeText(preview.data.sends_at, preview.data.time_zone, tz)} holds the week before that day.`
                      : ""}
                  </p>
                  <h5 className="field-label" id={`${id}-text-title`}>
                    As Slack and webhooks receive it
                  </h5>
                  <pre className={styles.digestText} tabIndex={0} aria-labelledby={`${id}-text-title`} data-testid="digest-preview-text">
                    {preview.data.text}
                  </pre>
                  <h5 className="field-label">As an e-mail</h5>
                  {/* Its own document, sandboxed: no script runs in it, and it reaches nothing of this page. */}
                  <iframe
                    className={styles.digestFrame}
                    title={`The weekly digest as an e-mail: ${preview.data.subject}`}
                    sandbox="allow-popups allow-popups-to-escape-sandbox"
                    srcDoc={preview.data.html}
                    data-testid="digest-preview-html"
                  />
                </>
              )}
            </section>
          )}
        </div>
      )}
      <p className={`small ${styles.statusLine}`} role="status" aria-live="polite" data-testid="digest-status">
        {status}
      </p>
    </Card>
  );
}
