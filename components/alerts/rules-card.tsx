"use client";
// Settings' alert rules: the form (what to watch, its threshold, where to send it, how long to stay
// quiet after notifying) with a live preview under it, read from the kept history as the user types
// ("Would have fired 3 times in the last 30 days"), and the rules with their state in words (not
// checked yet, and when it will be; OK; firing since; resolved), when each was last checked, an edit
// in place (threshold, destination, cooldown; Cancel or Escape puts it back) and a delete asked
// first. A rule is checked at once when added or given a new threshold, so its state is known as
// soon as there is something kept to judge it on. While the workspace is not watched the form offers
// to start watching with the rule (watch-offer.tsx). Removing a rule shows at once (put back if the
// server refuses); results are announced in the card's live region.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { DateTime, usePageNow } from "@/components/ui/date-time";
import { formatDateTime } from "@/lib/format/format";
import {
  useAlertWrites,
  useDestinations,
  useRulePreview,
  useRules,
  type Destination,
  type PreviewAsk,
  type Rule,
  type RuleChanges,
  type RuleKind,
} from "@/lib/queries/alerts";
import {
  cooldownText,
  destinationLabel,
  fieldOf,
  previewSentence,
  problemText,
  RULE_KIND_ORDER,
  RULE_KINDS,
  RULE_STATES,
  ruleSentence,
  ruleState,
  thresholdHint,
  thresholdInput,
  uncheckedText,
} from "./alert-text";
import styles from "./alerts.module.css";
import { useWatchOffer, WatchOffer } from "./watch-offer";

const FIELDS = ["kind", "threshold", "destination_id", "cooldown_minutes"] as const;
type Field = (typeof FIELDS)[number];
const EDIT_FIELDS = ["threshold", "destination_id", "cooldown_minutes"] as const;
type EditField = (typeof EDIT_FIELDS)[number];

/** What a rule's first check found, said after it is added or its threshold changed. */
function checkedText(rule: Rule): string {
  const state = ruleState(rule);
  if (state === "unchecked") return "Not checked yet: nothing is kept yet to judge it on.";
  return `Checked against what is kept: ${state === "firing" ? "firing" : "not firing"}.`;
}

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
  const { createRule, updateRule, deleteRule } = useAlertWrites();
  const watch = useWatchOffer();
  // Which of the form's buttons sent it: the first unless "Add the rule only" was clicked (implicit
  // submission, Enter in a field, is the first's).
  const withWatching = useRef(true);
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
    const watchToo = watch.offered && withWatching.current;
    withWatching.current = true;
    if (watchToo) {
      try {
        await watch.start();
      } catch (error) {
        setFormError(`Watching could not be turned on, so the rule was not added. ${error instanceof Error ? error.message : ""}`.trim());
        return;
      }
    }
    try {
      const rule = await createRule.mutateAsync({
        kind,
        threshold: spec.threshold ? typed : null,
        destination_id: chosen,
        ...(typedCooldown === null ? {} : { cooldown_minutes: typedCooldown }),
      });
      const to = destinationList.find((d) => d.id === rule.destination_id)?.name;
      setStatus(`${watchToo ? "Watching is on. " : ""}Rule added: ${ruleSentence(rule)}${to ? `, sent to ${to}` : ""}. ${checkedText(rule)}`);
    } catch (error) {
      if (watchToo) setStatus("Watching is on.");
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
          {watch.offered && <WatchOffer id={`${id}-watch`} what="rule" paused={watch.paused} />}
          <div className="card-actions" style={{ flexWrap: "wrap" }}>
            <button
              type="submit"
              className="button"
              disabled={createRule.isPending || watch.starting || destinationList.length === 0}
              aria-describedby={watch.offered ? `${id}-watch` : undefined}
              data-testid="rule-add"
            >
              {watch.starting
                ? "Starting to watch…"
                : createRule.isPending
                  ? "Adding…"
                  : watch.offered
                    ? watch.paused
                      ? "Watch again and add the rule"
                      : "Start watching and add the rule"
                    : "Add rule"}
            </button>
            {watch.offered && (
              <button
                type="submit"
                className="button button-secondary"
                disabled={createRule.isPending || watch.starting || destinationList.length === 0}
                onClick={() => (withWatching.current = false)}
                data-testid="rule-add-only"
              >
                Add the rule only
              </button>
            )}
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
                destinations={destinationList}
                onSave={async (changes) => {
                  setStatus("");
                  setListError(null);
                  const saved = await updateRule.mutateAsync({ id: rule.id, changes });
                  const to = destinationList.find((d) => d.id === saved.destination_id)?.name;
                  const rechecked = saved.threshold !== rule.threshold ? ` ${checkedText(saved)}` : "";
                  setStatus(
                    `Rule changed: ${ruleSentence(saved)}${to ? `, sent to ${to}` : ""}, cooldown ${cooldownText(saved.cooldown_minutes)}.${rechecked}`,
                  );
                }}
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

function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  );
}

type RuleItemProps = {
  rule: Rule;
  destination: Destination | undefined;
  destinations: Destination[];
  /** Saves an edit; throws the route's refusal (said on its field by the edit form). */
  onSave: (changes: RuleChanges) => Promise<void>;
  deleting: boolean;
  onDelete: () => Promise<void>;
};

function RuleItem({ rule, destination, destinations, onSave, deleting, onDelete }: RuleItemProps) {
  const tz = useDisplayTimeZone();
  const now = usePageNow();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const state = ruleState(rule);
  const sentence = ruleSentence(rule);
  // Focus goes back to the Edit button once the form has gone. After a save the form closes from an
  // awaited answer, not from an event, and React may render it later than the next frame: so the
  // focus moves when the render is committed, not in a frame callback that could find no button yet.
  const refocusEdit = useRef(false);
  const closeEdit = () => {
    refocusEdit.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !refocusEdit.current) return;
    refocusEdit.current = false;
    editButton.current?.focus();
  }, [editing]);

  return (
    <li className={styles.item} data-testid="rule-item">
      <div className={styles.itemHead}>
        <span className={`badge ${RULE_STATES[state].badge}`} data-testid="rule-state">
          {RULE_STATES[state].text}
        </span>
        <span className={styles.itemName}>{sentence}</span>
      </div>
      {editing ? (
        <RuleEditForm
          rule={rule}
          destinations={destinations}
          onCancel={closeEdit}
          onSave={async (changes) => {
            await onSave(changes);
            closeEdit();
          }}
        />
      ) : (
        <>
          <p className="small muted">
            To {destination ? destination.name : "a deleted destination"} · cooldown {cooldownText(rule.cooldown_minutes)}
          </p>
          <p className="small muted" data-testid="rule-checked">
            {state === "unchecked" ? (
              now ? (
                uncheckedText(rule, tz, now)
              ) : null
            ) : (
              <>
                {state === "firing" && rule.last_changed_at && (
                  <>
                    Firing since <DateTime iso={rule.last_changed_at} /> ·{" "}
                  </>
                )}
                {state === "resolved" && rule.last_changed_at && (
                  <>
                    Resolved <DateTime iso={rule.last_changed_at} /> ·{" "}
                  </>
                )}
                Last checked <DateTime iso={rule.last_checked_at} mode="relative" />
              </>
            )}
          </p>
        </>
      )}
      {editing ? null : confirming ? (
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
            ref={editButton}
            type="button"
            className="button button-small button-secondary"
            aria-label={`Edit the rule "${sentence}"`}
            onClick={() => setEditing(true)}
            data-testid="rule-edit"
          >
            Edit
          </button>
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

/**
 * A rule's edit in place: its threshold (when its kind has one), where it sends and its cooldown,
 * filled with what it has. Save sends them; a refused field is said on it, focused. Cancel, or Escape
 * anywhere in the form, leaves the rule as it was.
 */
function RuleEditForm({
  rule,
  destinations,
  onSave,
  onCancel,
}: {
  rule: Rule;
  destinations: Destination[];
  onSave: (changes: RuleChanges) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const spec = RULE_KINDS[rule.kind];
  const bounds = thresholdInput(rule.kind);
  const [threshold, setThreshold] = useState(rule.threshold === null ? "" : String(rule.threshold));
  const [destinationId, setDestinationId] = useState(rule.destination_id);
  const [cooldown, setCooldown] = useState(String(rule.cooldown_minutes));
  const [fieldError, setFieldError] = useState<{ field: EditField; message: string } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement & HTMLSelectElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  const focusField = (field: EditField) => requestAnimationFrame(() => document.getElementById(`${id}-${field}`)?.focus());
  // The rule's destination may have been deleted meanwhile: then none is chosen until one is.
  const known = destinations.some((d) => d.id === destinationId);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFieldError(null);
    setFormError(null);
    const typedCooldown = cooldown.trim() === "" ? Number.NaN : Number(cooldown);
    setSaving(true);
    try {
      await onSave({
        ...(spec.threshold ? { threshold: parseThreshold(threshold) } : {}),
        destination_id: destinationId,
        // JSON writes NaN as null: what is not a number is refused by the route, on its field.
        cooldown_minutes: typedCooldown,
      });
    } catch (error) {
      const field = fieldOf(error, EDIT_FIELDS);
      const message = problemText(error, "rule", rule.kind);
      if (field) {
        setFieldError({ field, message });
        focusField(field);
      } else setFormError(message);
    } finally {
      setSaving(false);
    }
  }

  const errorFor = (field: EditField) => (fieldError?.field === field ? fieldError.message : null);
  const described = (field: EditField, help?: string) => [help, errorFor(field) ? `${id}-${field}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    onCancel();
  };

  return (
    <form
      className={styles.editForm}
      onSubmit={(e) => void save(e)}
      onKeyDown={onKeyDown}
      noValidate
      aria-label={`Edit the rule "${ruleSentence(rule)}"`}
      data-testid="rule-edit-form"
    >
      <div className={styles.fields}>
        {spec.threshold && (
          <div className="field">
            <label htmlFor={`${id}-threshold`}>{spec.threshold.label}</label>
            <input
              ref={first}
              id={`${id}-threshold`}
              className="input"
              type="number"
              inputMode="decimal"
              min={bounds?.min}
              max={bounds?.max}
              step={bounds?.step}
              value={threshold}
              onChange={(e) => setThreshold(e.target.value)}
              aria-invalid={errorFor("threshold") ? true : undefined}
              aria-describedby={described("threshold", `${id}-threshold-help`)}
              data-testid="rule-edit-threshold"
            />
            <FieldError id={`${id}-threshold-error`} message={errorFor("threshold")} />
            <p id={`${id}-threshold-help`} className="small muted">
              {thresholdHint(rule.kind)}
            </p>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-destination_id`}>Send to</label>
          <select
            ref={spec.threshold ? undefined : first}
            id={`${id}-destination_id`}
            className="select"
            value={known ? destinationId : ""}
            onChange={(e) => setDestinationId(e.target.value)}
            aria-invalid={errorFor("destination_id") ? true : undefined}
            aria-describedby={described("destination_id")}
          >
            {!known && <option value="">Choose a destination</option>}
            {destinations.map((d) => (
              <option key={d.id} value={d.id}>
                {destinationLabel(d)}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-destination_id-error`} message={errorFor("destination_id")} />
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
            onChange={(e) => setCooldown(e.target.value)}
            aria-invalid={errorFor("cooldown_minutes") ? true : undefined}
            aria-describedby={described("cooldown_minutes")}
          />
          <FieldError id={`${id}-cooldown_minutes-error`} message={errorFor("cooldown_minutes")} />
        </div>
      </div>
      <div className={styles.actions}>
        <button type="submit" className="button button-small" disabled={saving} data-testid="rule-edit-save">
          {saving ? "Saving…" : "Save"}
        </button>
        <button type="button" className="button button-small button-secondary" onClick={onCancel} data-testid="rule-edit-cancel">
          Cancel
        </button>
      </div>
      {formError && (
        <p className="field-error" role="alert">
          {formError}
        </p>
      )}
    </form>
  );
}
