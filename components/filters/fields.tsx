"use client";
// Filter controls that apply on change, each showing the error for its parameter when the URL
// carries an invalid value (the `param` named by parseQuery).
import { useId, useState, type ReactNode } from "react";
import { DateInput } from "@/components/range/date-input";
import rangeStyles from "@/components/range/range.module.css";
import { calendarDayNumber } from "@/lib/data-api/params";

type Option = { value: string; label: string };

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span id={id} className="field-error" data-testid="field-error">
      {message}
    </span>
  ) : null;
}

export function SelectField({
  name,
  label,
  value,
  onChange,
  anyLabel = "Any",
  options,
  groups,
  error,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  anyLabel?: string;
  options?: Option[];
  groups?: Array<{ label: string; options: Option[] }>;
  error?: string;
}) {
  const id = useId();
  const known = [...(options ?? []), ...(groups ?? []).flatMap((g) => g.options)].some((o) => o.value === value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        className="select"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{anyLabel}</option>
        {value && !known && <option value={value}>{value} (invalid)</option>}
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {groups?.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * A date filter, typed by keyboard (YYYY-MM-DD) or picked from a calendar: a typed date applies on
 * Enter or on leaving the field, a picked one at once; a date that is not one is said on the field
 * and not applied. `value` is what the field shows (an instant from the URL shows as its day, with
 * the instant as `hint`).
 */
export function DateField({
  name,
  label,
  value,
  onChange,
  error,
  hint,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  const [typo, setTypo] = useState<string>();
  // Follow the URL when it changes under us (back/forward, the header's range, clear filters).
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
    setTypo(undefined);
  }
  const apply = (v: string) => {
    const typed = v.trim();
    if (typed === value) return setTypo(undefined);
    if (typed !== "" && calendarDayNumber(typed) === null) {
      setTypo(`${label}: type a date as YYYY-MM-DD, e.g. 2026-11-01`);
      return;
    }
    setTypo(undefined);
    onChange(typed);
  };
  const message = typo ?? error;
  return (
    <div className={`field ${rangeStyles.dateField}`}>
      <label htmlFor={id}>{label}</label>
      <DateInput
        id={id}
        name={name}
        label={label}
        value={draft}
        onChange={setDraft}
        onPick={apply}
        onEnter={() => apply(draft)}
        onBlur={() => apply(draft)}
        invalid={Boolean(message)}
        describedBy={message ? `${id}-error` : undefined}
      />
      {hint && !message && <span className="muted small">{hint}</span>}
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

/**
 * Free text with suggestions (known values, each with a readable label); applies on Enter, on leaving
 * the field, or on picking a suggestion. The label of the value applied is shown under the field.
 */
export function SuggestField({
  name,
  label,
  value,
  suggestions,
  onApply,
  error,
  placeholder,
}: {
  name: string;
  label: string;
  value: string;
  suggestions: ReadonlyArray<string | Option>;
  onApply: (value: string) => void;
  error?: string;
  placeholder?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  // Follow the URL when it changes under us (back/forward, clear filters).
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const apply = (v: string) => {
    const trimmed = v.trim();
    if (trimmed !== value) onApply(trimmed);
  };
  const options = suggestions.map((o) => (typeof o === "string" ? { value: o, label: "" } : o));
  const appliedLabel = options.find((o) => o.value === value)?.label;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        className="input"
        list={`${id}-list`}
        value={draft}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-help`}
        onChange={(e) => {
          setDraft(e.target.value);
          if (options.some((o) => o.value === e.target.value)) apply(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            apply(draft);
          }
        }}
        onBlur={() => apply(draft)}
      />
      <datalist id={`${id}-list`}>
        {options.map((o) => (
          <option key={o.value} value={o.value} label={o.label || undefined} />
        ))}
      </datalist>
      {appliedLabel && !error && (
        <span className="muted small" data-testid={`${name}-label`}>
          {appliedLabel}
        </span>
      )}
      {error ? <FieldError id={`${id}-error`} message={error} /> : <span id={`${id}-help`} className="visually-hidden">Pick a suggestion or type any value, then press Enter</span>}
    </div>
  );
}
