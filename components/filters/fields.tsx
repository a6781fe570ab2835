"use client";
// Filter controls that apply on change, each showing the error for its parameter when the URL
// carries an invalid value (the `param` named by parseQuery).
import { useId, useState, type ReactNode } from "react";

type Option = { value: string; label: string };

/** What a field gives its control: its id (the label's target), its name, and how it is announced. */
type ControlProps = { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A labelled control with its error, and otherwise its hint: whichever is shown is what the control's
 * aria-describedby names, so a screen reader reads the message the eye sees. `hiddenHint` is read
 * but not shown (how to use a control that looks like a plain input).
 */
function Field({
  name,
  label,
  error,
  hint,
  hiddenHint = false,
  children,
}: {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  hiddenHint?: boolean;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {error ? (
        <span id={`${id}-error`} className="field-error" data-testid="field-error">
          {error}
        </span>
      ) : (
        hint && (
          <span id={`${id}-hint`} className={hiddenHint ? "visually-hidden" : "muted small"}>
            {hint}
          </span>
        )
      )}
    </div>
  );
}

/** A filter's parameter: its URL value and error, and `onChange` with a value to apply ("" clears it). */
type FieldProps = { name: string; label: string; value: string; error?: string; onChange: (value: string) => void };

export function SelectField({
  value,
  onChange,
  anyLabel = "Any",
  options,
  groups,
  ...field
}: FieldProps & {
  anyLabel?: string;
  options?: Option[];
  groups?: Array<{ label: string; options: Option[] }>;
}) {
  const known = [...(options ?? []), ...(groups ?? []).flatMap((g) => g.options)].some((o) => o.value === value);
  return (
    <Field {...field}>
      {(control) => (
        <select {...control} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
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
      )}
    </Field>
  );
}

/** A date filter. A full timestamp in the URL (e.g. from the overview's window) is shown beside it. */
export function DateField({ value, onChange, hint, ...field }: FieldProps & { hint?: ReactNode }) {
  const dateOnly = /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : "";
  return (
    <Field {...field} hint={value.length > 10 ? hint : undefined}>
      {(control) => <input {...control} type="date" className="input" value={dateOnly} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/**
 * Free text with suggestions (known values): calls back, trimmed, on Enter, on leaving the field, or
 * on picking a suggestion, not on every keystroke.
 */
export function SuggestField({
  value,
  suggestions,
  onChange,
  placeholder,
  ...field
}: FieldProps & { suggestions: readonly string[]; placeholder?: string }) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  // Follow the URL when it changes under us (back/forward, clear filters).
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const apply = (v: string) => {
    const trimmed = v.trim();
    if (trimmed !== value) onChange(trimmed);
  };
  return (
    <Field {...field} hint="Pick a suggestion or type any value, then press Enter" hiddenHint>
      {(control) => (
        <>
          <input
            {...control}
            className="input"
            list={`${control.id}-list`}
            value={draft}
            placeholder={placeholder}
            autoComplete="off"
            spellCheck={false}
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
          <datalist id={`${control.id}-list`}>
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
