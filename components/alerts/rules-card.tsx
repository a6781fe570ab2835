"use client";
// Settings' alert rules: the form (what to watch, its threshold, where to send it, how long to stay
// quiet after notifying) with a live preview under it, read from the kept history as the user types
// ("Would have fired 3 times in the last 30 days"), and the rules with their state (OK or firing),
// when each was last checked and last changed, and a delete asked first. Removing a rule shows at
// once (put back if the server refuses); results are announced in the card's live region.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { formatDateTime } from "@/lib/format/format";
import { useAlertWrites, useDestinations, useRulePreview, useRules, type Destination, type PreviewAsk, type Rule, type RuleKind } from "@/lib/queries/alerts";
import { cooldownText, fieldOf, previewSentence, problemText, RULE_KIND_ORDER, RULE_KINDS, ruleSentence, thresholdHint, thresholdInput } from "./alert-text";
import styles from "./alerts.module.css";

const FIELDS = ["kind", "threshold", "destination_id", "cooldown_minutes"] as const;
type Field = (typeof FIELDS)[number];

/** How long the form waits after the last keystroke before it asks for a preview. */
export const PREVIEW_DEBOUNCE_MS = 400;

/** `value` once it has stayed the same (===) for `ms`. */
function useDebounced<T extends string | number | null>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A typed number, or null for nothing typed; NaN for what is not a number (the route says why). */
export function parseThreshold(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** The preview's question back from its debounced string (JSON writes NaN as null: what is not a number is not asked about). */
function parseAsk(text: string): PreviewAsk {
  const { kind, threshold, cooldown_minutes } = JSON.parse(text) as PreviewAsk;
  return { kind, threshold, cooldown_minutes };
}

export function RulesCard() {
  const id = useId();
  const tz = useDisplayTimeZone();
  const rules = useRules();
  const destinations = useDestinations();
  const { createRule, deleteRule } = useAlertWrites();
  const [kind, setKind] = useState<RuleKind>("score_drop");
  const [threshold, setThreshold] = useState("5");
  const [destinationId, setDestinationId] = useState("");
  const [cooldown, setCooldown] = useState("60");
  const [fieldError, setFieldError] = useState<{ field: Field; message: string } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [listError, setListError] = useState<string | null>(null);
  // Each field's element id is `${id}-${field}`, so a refusal naming a field can focus it.
  const focusField = (field: Field) => requestAnimationFrame(() => document.getElementById(`${id}-${field}`)?.focus());
  const listRef = useRef<HTMLUListElement>(null);

  const spec = RULE_KINDS[kind];
  const bounds = thresholdInput(kind);
  const destinationList = destinations.data ?? [];
  // The first destination until one is chosen, and again if the chosen one is deleted.
  const chosen = destinationList.some((d) => d.id === destinationId) ? destinationId : (destinationList[0]?.id ?? "");
  const typed = spec.threshold ? parseThreshold(threshold) : null;
  const typedCooldown = cooldown.trim() === "" ? null : Number(cooldown);
  // Debounced as one string, so a change of kind, threshold or cooldown restarts the same wait.
  const asked = JSON.stringify({ kind, threshold: typed, cooldown_minutes: typedCooldown });
  const settledAsk = useDebounced(asked, PREVIEW_DEBOUNCE_MS);
  const settled = settledAsk === asked;
  const ask = parseAsk(settledAsk);
  const canPreview = !RULE_KINDS[ask.kind].threshold || ask.threshold !== null;
  const preview = useRulePreview(ask, canPreview);
  // The preview's own refusal of a field is said on that field, as the create's would be.
  const previewField = settled && preview.error ? fieldOf(preview.error, ["threshold", "cooldown_minutes"] as const) : null;
  const previewFieldError = previewField ? problemText(preview.error, "preview", ask.kind) : null;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFieldError(null);
    setFormError(null);
    setStatus("");
    try {
      const rule = await createRule.mutateAsync({
        kind,
        threshold: spec.threshold ? typed : null,
        destination_id: chosen,
        ...(typedCooldown === null ? {} : { cooldown_minutes: typedCooldown }),
      });
      const to = destinationList.find((d) => d.id === rule.destination_id)?.name;
      setStatus(`Rule added: ${ruleSentence(rule)}${to ? `, sent to ${to}` : ""}.`);
    } catch (error) {
      const field = fieldOf(error, FIELDS);
      const message = problemText(error, "rule", kind);
      if (field) {
        setFieldError({ field, message });
        focusField(field);
      } else setFormError(message);
    }
  }

  const errorFor = (field: Field) => (fieldError?.field === field ? fieldError.message : field === previewField ? previewFieldError : null);
  const described = (field: Field, help?: string) => [help, errorFor(field) ? `${id}-${field}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const list = rules.data ?? [];

  return (
    <Card
      title="Rules"
      level={3}
      testId="rules-card"
      description="Each rule is checked after every snapshot the dashboard keeps, and notifies when it starts firing and when it is resolved, no more often than its cooldown."
    >
      <div className="stack" style={{ gap: 16 }}>
        <form className={styles.form} onSubmit={(e) => void add(e)} noValidate aria-labelledby={`${id}-form-title`} data-testid="rule-form">
          <h4 className={styles.formTitle} id={`${id}-form-title`}>
            Add a rule
          </h4>
          <div className={styles.fields}>
            <div className="field">
              <label htmlFor={`${id}-kind`}>Notify when</label>
              <select
                id={`${id}-kind`}
                className="select"
                value={kind}
                onChange={(e) => {
                  setKind(e.target.value as RuleKind);
                  setFieldError(null);
                }}
                aria-invalid={errorFor("kind") ? true : undefined}
                aria-describedby={described("kind")}
              >
                {RULE_KIND_ORDER.map((k) => (
                  <option key={k} value={k}>
                    {RULE_KINDS[k].name}
                  </option>
                ))}
              </select>
              <FieldError id={`${id}-kind-error`} message={errorFor("kind")} />
            </div>
            {spec.threshold && (
              <div className="field">
                <label htmlFor={`${id}-threshold`}>{spec.threshold.label}</label>
                <input
                  id={`${id}-threshold`}
                    className="input"
                  type="number"
                  inputMode="decimal"
                  min={bounds?.min}
                  max={bounds?.max}
                  step={bounds?.step}
                  value={threshold}
                  onChange={(e) => {
                    setThreshold(e.target.value);
                    if (fieldError?.field === "threshold") setFieldError(null);
                  }}
                  aria-invalid={errorFor("threshold") ? true : undefined}
                  aria-describedby={described("threshold", `${id}-threshold-help`)}
                  data-testid="rule-threshold"
                />
                <FieldError id={`${id}-threshold-error`} message={errorFor("threshold")} />
                <p id={`${id}-threshold-help`} className="small muted">
                  {thresholdHint(kind)}
                </p>
              </div>
            )}
          </div>
          <div className={styles.fields}>
            <div className="field">
              <label htmlFor={`${id}-destination_id`}>Send to</label>
              <select
                id={`${id}-destination_id`}
                className="select"
                value={chosen}
                onChange={(e) => setDestinationId(e.target.value)}
                disabled={destinationList.length === 0}
                aria-invalid={errorFor("destination_id") ? true : undefined}
                aria-describedby={described("destination_id", destinationList.length === 0 ? `${id}-destination-help` : undefined)}
              >
                {destinationList.length === 0 && <option value="">No destination yet</option>}
                {destinationList.map((d) => (
                  <option key={d.id} value={d.id}>
                    {destinationLabel(d)}
                  </option>
                ))}
              </select>
              <FieldError id={`${id}-destination_id-error`} message={errorFor("destination_id")} />
              {destinationList.length === 0 && (
                <p id={`${id}-destination-help`} className="small muted">
                  Add a destination first: every rule sends to one.
                </p>
              )}
            </div>
            <div className="field">
              <label htmlFor={`${id}-cooldown_minutes`}>Cooldown (minutes)</label>
              <input
                id={`${id}-cooldown_minutes`}
                className="input"
                type="number"
                inputMode="numeric"
                min={0}
                max={10080}
                step={1}
                value={cooldown}
                onChange={(e) => {
                  setCooldown(e.target.value);
                  if (fieldError?.field === "cooldown_minutes") setFieldError(null);
                }}
                aria-invalid={errorFor("cooldown_minutes") ? true : undefined}
                aria-describedby={described("cooldown_minutes", `${id}-cooldown-help`)}
              />
              <FieldError id={`${id}-cooldown_minutes-error`} message={errorFor("cooldown_minutes")} />
              <p id={`${id}-cooldown-help`} className="small muted">
                The least time between two notifications of this rule: 0 to 10,080 (a week).
              </p>
            </div>
          </div>
          <div className={styles.preview} data-testid="rule-preview">
            <span className="field-label">Preview</span>{" "}
            <span role="status" aria-live="polite" data-testid="rule-preview-text">
              {!settled || (canPreview && preview.isPending)
                ? "Checking the kept history…"
                : !canPreview
                  ? "Type a threshold to see how often this rule would have fired."
                  : preview.error
                    ? previewFieldError
                      ? `Correct the ${previewField === "threshold" ? "threshold" : "cooldown"} to see how often this rule would have fired.`
                      : `The preview could not be read. ${problemText(preview.error, "preview", ask.kind)}`
                    : preview.data
                      ? previewSentence(preview.data, tz)
                      : ""}
            </span>
            {settled && preview.data && preview.data.firings.length > 0 && (
              <details className={styles.firings}>
                <summary>When it would have fired</summary>
                <ul>
                  {preview.data.firings.map((f) => (
                    <li key={`${f.at}-${f.message}`}>
                      <span className="nowrap">{formatDateTime(f.at, tz)}</span> <span className="muted">{f.message}</span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
          <div className="card-actions">
            <button type="submit" className="button" disabled={createRule.isPending || destinationList.length === 0} data-testid="rule-add">
              {createRule.isPending ? "Adding…" : "Add rule"}
            </button>
          </div>
          {formError && (
            <p className="field-error" role="alert" data-testid="rule-form-error">
              {formError}
            </p>
          )}
        </form>

        {listError && (
          <p className="field-error" role="alert" data-testid="rule-list-error">
            {listError}
          </p>
        )}
        {rules.error ? (
          <p className="field-error" role="alert">
            {problemText(rules.error, "rule")}
          </p>
        ) : rules.isPending ? (
          <p className="small muted">Loading…</p>
        ) : list.length === 0 ? (
          <p className="small muted" data-testid="rules-empty">
            No rule yet.
          </p>
        ) : (
          <ul className={styles.list} ref={listRef} tabIndex={-1} aria-label="Rules" data-testid="rule-list">
            {list.map((rule) => (
              <RuleItem
                key={rule.id}
                rule={rule}
                destination={destinationList.find((d) => d.id === rule.destination_id)}
                deleting={deleteRule.isPending && deleteRule.variables === rule.id}
                onDelete={async () => {
                  setStatus("");
                  setListError(null);
                  // The item leaves the list at once (optimistic): focus goes to the list, not to the page.
                  if (list.length > 1) listRef.current?.focus();
                  else document.getElementById(`${id}-kind`)?.focus();
                  try {
                    await deleteRule.mutateAsync(rule.id);
                    setStatus(`Rule deleted: ${ruleSentence(rule)}.`);
                  } catch (error) {
                    setListError(`The rule "${ruleSentence(rule)}" was not deleted: ${problemText(error, "rule")}`);
                  }
                }}
              />
            ))}
          </ul>
        )}
      </div>
      <p className={`small ${styles.statusLine}`} role="status" aria-live="polite" data-testid="rules-status">
        {status}
      </p>
    </Card>
  );
}

const destinationLabel = (d: Destination) => `${d.name} (${d.kind === "slack" ? "Slack" : "webhook"}${d.status === "stopped" ? ", stopped" : ""})`;

function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

function RuleItem({ rule, destination, deleting, onDelete }: { rule: Rule; destination: Destination | undefined; deleting: boolean; onDelete: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const firing = rule.state === "firing";
  const sentence = ruleSentence(rule);

  return (
    <li className={styles.item} data-testid="rule-item">
      <div className={styles.itemHead}>
        <span className={`badge ${firing ? "badge-danger" : "badge-success"}`} data-testid="rule-state">
          {firing ? "Firing" : "OK"}
        </span>
        <span className={styles.itemName}>{sentence}</span>
      </div>
      <p className="small muted">
        To {destination ? destination.name : "a deleted destination"} · cooldown {cooldownText(rule.cooldown_minutes)}
      </p>
      <p className="small muted" data-testid="rule-checked">
        {rule.last_checked_at ? (
          <>
            Last checked <DateTime iso={rule.last_checked_at} mode="relative" />
          </>
        ) : (
          "Not checked yet: it is checked after the next snapshot."
        )}
        {rule.last_changed_at && (
          <>
            {" "}
            · {firing ? "firing since" : "resolved"} <DateTime iso={rule.last_changed_at} />
          </>
        )}
      </p>
      {confirming ? (
        <div className={styles.actions} role="group" aria-label={`Delete the rule "${sentence}"?`}>
          <p className="small">Delete this rule?</p>
          <button
            ref={confirmButton}
            type="button"
            className="button button-small button-danger"
            disabled={deleting}
            onClick={() => void onDelete()}
            data-testid="rule-delete-confirm"
          >
            {deleting ? "Deleting…" : "Yes, delete"}
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => {
              setConfirming(false);
              requestAnimationFrame(() => deleteButton.current?.focus());
            }}
          >
            Keep it
          </button>
        </div>
      ) : (
        <div className={styles.actions}>
          <button
            ref={deleteButton}
            type="button"
            className="button button-small button-danger"
            aria-label={`Delete the rule "${sentence}"`}
            onClick={() => {
              setConfirming(true);
              requestAnimationFrame(() => confirmButton.current?.focus());
            }}
            data-testid="rule-delete"
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
