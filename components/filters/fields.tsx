"use client";
// Filter controls that apply on change, each showing the error for its parameter when the URL
// carries an invalid value (the `param` named by parseQuery).
import { useId, useState, type ReactNode } from "react";

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

/** A date filter. A full timestamp in the URL (e.g. from the overview's window) is shown beside it. */
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
  const dateOnly = /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : "";
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="date"
        className="input"
        value={dateOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && value.length > 10 && !error && <span className="muted small">{hint}</span>}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Free text with suggestions (known values); applies on Enter, on leaving the field, or on picking a suggestion. */
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
  suggestions: readonly string[];
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
          if (suggestions.includes(e.target.value)) apply(e.target.value);
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
        {suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      {error ? <FieldError id={`${id}-error`} message={error} /> : <span id={`${id}-help`} className="visually-hidden">Pick a suggestion or type any value, then press Enter</span>}
    </div>
  );
}
