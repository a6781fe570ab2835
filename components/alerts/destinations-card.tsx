"use client";
// Settings' alert destinations: where alerts and the digest are sent (a Slack incoming webhook, any
// URL receiving signed JSON, or one e-mail address when the dashboard has a mail server). The form
// adds one (a refused field is said on that field); a webhook's signing secret is shown once, right
// after, with a copy button; an e-mail address waits for its recipient to confirm, and the card says
// so (or that the mail server did not take the confirmation). The list shows each destination's URL
// or address only as the server's masked hint, whether it waits for confirmation, was unsubscribed
// or stopped and why, or rests (it timed out again and again) and until when, "Send a test"
// (its delivery then shows under Deliveries) and a delete asked first, saying what else goes with it
// (its rules; the digest, if it went there). Results are announced in the card's live region.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { formatCount } from "@/lib/format/format";
import { useAlertWrites, useDestinations, useDigest, useRules, type CreatedDestination, type Destination, type DestinationKind } from "@/lib/queries/alerts";
import { DESTINATION_KINDS, destinationKindName, destinationState, fieldOf, problemText } from "./alert-text";
import styles from "./alerts.module.css";

const FIELDS = ["kind", "name", "url", "to"] as const;
type Field = (typeof FIELDS)[number];

/** What the card says once an e-mail destination is added: what happens next, or what went wrong. */
export function emailAddedText(d: Pick<CreatedDestination, "name" | "to_hint" | "status" | "stopped_reason" | "confirmation_sent">): string {
  if (d.status === "stopped") return `The mail server refused ${d.to_hint ?? "the address"}, so ${d.name} is stopped. ${d.stopped_reason ?? ""}`.trim();
  if (d.confirmation_sent === false)
    return `${d.name} was added, but the mail server did not take its confirmation e-mail. Delete it and add it again to send the confirmation again.`;
  return `Confirmation sent to ${d.to_hint ?? "the address"}. Nothing else goes to ${d.name} until its recipient presses Confirm in that e-mail.`;
}

/** What deleting a destination takes with it, asked before (`done` false) or said after. */
export function deletionConsequences(rules: number, digestGoesThere: boolean, done = false): string {
  const rulesGo = `${rules === 1 ? "Its rule" : `Its ${formatCount(rules, "rule")}`} ${done ? (rules === 1 ? "was" : "were") : rules === 1 ? "is" : "are"} deleted too`;
  const digestOff = `the weekly digest ${done ? "was" : "is"} turned off`;
  if (rules > 0 && digestGoesThere) return `${rulesGo}, and ${digestOff}.`;
  if (rules > 0) return `${rulesGo}.`;
  if (digestGoesThere) return `The weekly digest went there: it ${done ? "was" : "is"} turned off.`;
  return done ? "" : "No rule and no digest sends to it.";
}

export function DestinationsCard({ onTestSent, emailAvailable = false }: { onTestSent: (deliveryId: string) => void; emailAvailable?: boolean }) {
  const id = useId();
  const destinations = useDestinations();
  const rules = useRules();
  const digest = useDigest();
  const { createDestination, deleteDestination, testDestination } = useAlertWrites();
  const [kind, setKind] = useState<DestinationKind>("slack");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [fieldError, setFieldError] = useState<{ field: Field; message: string } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedDestination | null>(null);
  const [status, setStatus] = useState("");
  // Each field's element id is `${id}-${field}`, so a refusal naming a field can focus it.
  const focusField = (field: Field) => requestAnimationFrame(() => document.getElementById(`${id}-${field}`)?.focus());
  const secretRef = useRef<HTMLInputElement>(null);
  // The secret takes focus once it is on the page: after React has committed it, which a frame
  // requested when the answer came is not sure to follow on a busy machine.
  useEffect(() => {
    if (!created) return;
    secretRef.current?.focus();
    secretRef.current?.select();
  }, [created]);
  const listRef = useRef<HTMLUListElement>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFieldError(null);
    setFormError(null);
    setStatus("");
    setCreated(null);
    try {
      const destination = await createDestination.mutateAsync(
        kind === "email" ? { kind, name: name.trim(), to: url.trim() } : { kind, name: name.trim(), url: url.trim() },
      );
      createDestination.reset();
      setName("");
      setUrl("");
      if (destination.kind === "email") {
        setStatus(emailAddedText(destination));
        focusField("name");
      } else if (destination.secret) {
        setCreated(destination);
        setStatus(`Webhook ${destination.name} added. Copy its signing secret now: it will not be shown again.`);
      } else {
        setStatus(`${destinationKindName(destination.kind)} destination ${destination.name} added.`);
        focusField("name");
      }
    } catch (error) {
      const field = fieldOf(error, FIELDS);
      const message = problemText(error, "destination", kind);
      if (field) {
        setFieldError({ field, message });
        focusField(field);
      } else setFormError(message);
    }
  }

  const errorFor = (field: Field) => (fieldError?.field === field ? fieldError.message : null);
  // The one address field: a URL, or for e-mail the recipient's address (the route calls it `to`).
  const addressField: Field = kind === "email" ? "to" : "url";
  const described = (field: Field, help?: string) => [help, errorFor(field) ? `${id}-${field}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const list = destinations.data ?? [];

  return (
    <Card
      title="Destinations"
      level={3}
      testId="destinations-card"
      description={`Where alerts and the weekly digest are sent: a Slack channel's incoming webhook, any URL that receives signed JSON${emailAvailable ? ", or an e-mail address" : ""}. Addresses and secrets are kept encrypted and shown masked.`}
    >
      <div className="stack" style={{ gap: 16 }}>
        {destinations.error ? (
          <p className="field-error" role="alert">
            {problemText(destinations.error, "destination")}
          </p>
        ) : destinations.isPending ? (
          <p className="small muted">Loading…</p>
        ) : list.length === 0 ? (
          <p className="small muted" data-testid="destinations-empty">
            No destination yet: add one below, then rules and the digest can send to it.
          </p>
        ) : (
          <ul className={styles.list} ref={listRef} tabIndex={-1} aria-label="Destinations" data-testid="destination-list">
            {list.map((d) => {
              const ruleCount = rules.data?.filter((r) => r.destination_id === d.id).length ?? 0;
              const digestGoesThere = digest.data?.destination_id === d.id;
              return (
                <DestinationItem
                  key={d.id}
                  destination={d}
                  rules={ruleCount}
                  digestGoesThere={digestGoesThere}
                  testing={testDestination.isPending && testDestination.variables === d.id}
                  deleting={deleteDestination.isPending && deleteDestination.variables === d.id}
                  onTest={async () => {
                    setStatus("");
                    const deliveryId = (await testDestination.mutateAsync(d.id)).delivery_id;
                    if (deliveryId) onTestSent(deliveryId);
                    setStatus(`Test sent to ${d.name}: its delivery shows under Deliveries.`);
                  }}
                  onDelete={async () => {
                    setStatus("");
                    await deleteDestination.mutateAsync(d.id);
                    if (created?.id === d.id) setCreated(null);
                    setStatus(`Destination ${d.name} deleted. ${deletionConsequences(ruleCount, digestGoesThere, true)}`.trim());
                    requestAnimationFrame(() => (listRef.current ?? document.getElementById(`${id}-kind`))?.focus());
                  }}
                />
              );
            })}
          </ul>
        )}

        {created?.secret && (
          <div className={`notice notice-warning ${styles.secret}`} role="group" aria-labelledby={`${id}-secret-title`} data-testid="destination-secret">
            <p id={`${id}-secret-title`}>
              <strong>Signing secret of {created.name}</strong>: copy it now. It will not be shown again.
            </p>
            <SecretField secret={created.secret} inputRef={secretRef} labelId={`${id}-secret-title`} onCopied={setStatus} />
            <p className="small">
              Every request to this webhook carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers; your
              receiver checks the signature with this secret.
            </p>
            <div>
              <button type="button" className="button button-secondary button-small" onClick={() => setCreated(null)} data-testid="destination-secret-done">
                I have copied it
              </button>
            </div>
          </div>
        )}

        <form className={styles.form} onSubmit={(e) => void add(e)} noValidate aria-labelledby={`${id}-form-title`} data-testid="destination-form">
          <h4 className={styles.formTitle} id={`${id}-form-title`}>
            Add a destination
          </h4>
          <div className={styles.fields}>
            <div className="field">
              <label htmlFor={`${id}-kind`}>Kind</label>
              <select
                id={`${id}-kind`}
                className="select"
                value={kind}
                onChange={(e) => {
                  setKind(e.target.value as DestinationKind);
                  if (fieldError?.field === "url" || fieldError?.field === "to") setFieldError(null);
                }}
                aria-invalid={errorFor("kind") ? true : undefined}
                aria-describedby={described("kind", emailAvailable ? undefined : `${id}-kind-help`)}
              >
                <option value="slack">Slack</option>
                <option value="webhook">Webhook (signed JSON)</option>
                <option value="email" disabled={!emailAvailable}>
                  {emailAvailable ? "E-mail" : "E-mail (no mail server set up)"}
                </option>
              </select>
              <FieldError id={`${id}-kind-error`} message={errorFor("kind")} />
              {!emailAvailable && (
                <p id={`${id}-kind-help`} className="small muted" data-testid="destination-email-unavailable">
                  E-mail needs a mail server: whoever runs this dashboard sets SMTP_URL and MAIL_FROM.
                </p>
              )}
            </div>
            <div className="field">
              <label htmlFor={`${id}-name`}>Name</label>
              <input
                id={`${id}-name`}
                className="input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                autoComplete="off"
                placeholder={kind === "email" ? "Maria, marketing lead" : kind === "slack" ? "#marketing-alerts" : "Ops receiver"}
                aria-invalid={errorFor("name") ? true : undefined}
                aria-describedby={described("name")}
              />
              <FieldError id={`${id}-name-error`} message={errorFor("name")} />
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-${addressField}`}>{kind === "email" ? "E-mail address" : "URL"}</label>
            <input
              id={`${id}-${addressField}`}
              className="input mono"
              type={kind === "email" ? "email" : "text"}
              inputMode={kind === "email" ? "email" : "url"}
              autoComplete="off"
              spellCheck={false}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder={DESTINATION_KINDS[kind].placeholder}
              aria-invalid={errorFor(addressField) ? true : undefined}
              aria-describedby={described(addressField, `${id}-address-help`)}
              data-testid="destination-address"
            />
            <FieldError id={`${id}-${addressField}-error`} message={errorFor(addressField)} />
            <p id={`${id}-address-help`} className="small muted">
              {DESTINATION_KINDS[kind].urlHint}
            </p>
          </div>
          <div className="card-actions">
            <button type="submit" className="button" disabled={createDestination.isPending} data-testid="destination-add">
              {createDestination.isPending ? "Adding…" : "Add destination"}
            </button>
          </div>
          {formError && (
            <p className="field-error" role="alert" data-testid="destination-form-error">
              {formError}
            </p>
          )}
        </form>
      </div>
      <p className={`small ${styles.statusLine}`} role="status" aria-live="polite" data-testid="destinations-status">
        {status}
      </p>
    </Card>
  );
}

function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

/** The secret, read-only and selected, with a copy button; where the clipboard is refused, it says to copy by hand. */
function SecretField({
  secret,
  inputRef,
  labelId,
  onCopied,
}: {
  secret: string;
  inputRef: React.RefObject<HTMLInputElement | null>;
  labelId: string;
  onCopied: (status: string) => void;
}) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      onCopied("Signing secret copied to the clipboard.");
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
      onCopied("The browser did not allow copying: the secret is selected, copy it with Ctrl+C (⌘C on a Mac).");
    }
  }
  return (
    <div className={styles.secretRow}>
      <input
        ref={inputRef}
        className="input mono"
        readOnly
        value={secret}
        aria-labelledby={labelId}
        spellCheck={false}
        data-testid="destination-secret-value"
        onFocus={(e) => e.target.select()}
      />
      <button type="button" className="button button-small" onClick={() => void copy()} data-testid="destination-secret-copy">
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}

function DestinationItem({
  destination: d,
  rules,
  digestGoesThere,
  testing,
  deleting,
  onTest,
  onDelete,
}: {
  destination: Destination;
  rules: number;
  digestGoesThere: boolean;
  testing: boolean;
  deleting: boolean;
  onTest: () => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const consequences = deletionConsequences(rules, digestGoesThere);
  const state = destinationState(d);
  const ended = d.status === "stopped" || d.status === "unsubscribed";
  const resting = d.status === "active" && d.resting_until !== null;

  return (
    <li className={styles.item} data-testid="destination-item">
      <div className={styles.itemHead}>
        <span className={styles.itemName}>{d.name}</span>
        <span className="badge badge-neutral">{destinationKindName(d.kind)}</span>
        <span className={`badge ${state.badge}`} data-testid="destination-status">
          {state.text}
        </span>
      </div>
      <p className={`mono small ${styles.hint}`} data-testid="destination-url">
        <span className="visually-hidden">{d.kind === "email" ? "Address" : "URL"}, masked: </span>
        {d.url_hint ?? d.to_hint}
      </p>
      {ended && (
        <p className="small" data-testid="destination-stopped">
          {d.stopped_reason ?? "Nothing is sent here any more. To send here again, delete it and add it again."}
        </p>
      )}
      {d.status === "unconfirmed" && (
        <p className="small" data-testid="destination-unconfirmed">
          Its recipient has been sent an e-mail with a Confirm button; nothing else goes there until they press it.
        </p>
      )}
      {resting && (
        <p className="small" data-testid="destination-resting">
          It did not answer 5 times in a row, so nothing is sent here until <DateTime iso={d.resting_until!} />; what waits for it goes then.
        </p>
      )}
      <p className="small muted">
        Added <DateTime iso={d.created_at} mode="date" />
        {rules > 0 ? ` · ${formatCount(rules, "rule")}` : ""}
        {digestGoesThere ? " · the weekly digest" : ""}
      </p>
      {confirming ? (
        <div className={styles.actions} role="group" aria-label={`Delete ${d.name}?`}>
          <p className="small" id={`confirm-${d.id}`}>
            Delete {d.name}? {consequences}
          </p>
          <button
            ref={confirmButton}
            type="button"
            className="button button-small button-danger"
            disabled={deleting}
            aria-describedby={`confirm-${d.id}`}
            onClick={async () => {
              setError(null);
              try {
                await onDelete();
              } catch (e) {
                setError(problemText(e, "destination"));
              }
            }}
            data-testid="destination-delete-confirm"
          >
            {deleting ? "Deleting…" : "Yes, delete"}
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => {
              setConfirming(false);
              setError(null);
              requestAnimationFrame(() => deleteButton.current?.focus());
            }}
          >
            Keep it
          </button>
        </div>
      ) : (
        <div className={styles.actions}>
          {d.status === "active" && (
            <button
              type="button"
              className="button button-small button-secondary"
              aria-label={`Send a test to ${d.name}`}
              disabled={testing}
              onClick={async () => {
                setError(null);
                try {
                  await onTest();
                } catch (e) {
                  setError(problemText(e, "test"));
                }
              }}
              data-testid="destination-test"
            >
              {testing ? "Sending…" : "Send a test"}
            </button>
          )}
          <button
            ref={deleteButton}
            type="button"
            className="button button-small button-danger"
            aria-label={`Delete ${d.name}`}
            onClick={() => {
              setConfirming(true);
              requestAnimationFrame(() => confirmButton.current?.focus());
            }}
            data-testid="destination-delete"
          >
            Delete
          </button>
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
