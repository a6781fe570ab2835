"use client";
// Filter controls that apply on change, each showing the error for its parameter when the URL
// carries an invalid value (the `param` named by parseQuery), in plain words (lib/ui/messages.ts).
import { useId, useState, type ReactNode } from "react";
import { DateInput } from "@/components/range/date-input";
import rangeStyles from "@/components/range/range.module.css";
import { calendarDayNumber } from "@/lib/data-api/params";
import { rangeProblemText } from "@/lib/ui/messages";

type Option = { value: string; label: string };

/** What a field gives its control: its id (the label's target), its name, and how it is announced. */
type ControlProps = { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A labelled control with its error, and otherwise its hint: whichever is shown is what the control's
 * aria-describedby names, so a screen reader reads the message the eye sees. `help` is read but not
 * shown (how to use a control that looks like a plain input), with the hint when there is one.
 */
function Field({
  name,
  label,
  error,
  hint,
  help,
  className,
  children,
}: {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  help?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const described = error ? [`${id}-error`] : [hint ? `${id}-hint` : "", help ? `${id}-help` : ""].filter(Boolean);
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, "aria-invalid": error ? true : undefined, "aria-describedby": described.join(" ") || undefined })}
      {error ? (
        <span id={`${id}-error`} className="field-error" data-testid="field-error">
          {error}
        </span>
      ) : (
        <>
          {hint && (
            <span id={`${id}-hint`} className="muted small">
              {hint}
            </span>
          )}
          {help && (
            <span id={`${id}-help`} className="visually-hidden">
              {help}
            </span>
          )}
        </>
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

/**
 * A date filter, typed by keyboard (YYYY-MM-DD) or picked from a calendar: a typed date applies on
 * Enter or on leaving the field, a picked one at once; a date that is not one is said on the field
 * and not applied. `value` is what the field shows (an instant from the URL shows as its day, with
 * the instant as `hint`).
 */
export function DateField({ value, onChange, error, hint, ...field }: FieldProps & { hint?: ReactNode }) {
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
      setTypo(rangeProblemText(field.name === "to" ? "to" : "from", "not_a_date"));
      return;
    }
    setTypo(undefined);
    onChange(typed);
  };
  return (
    <Field {...field} error={typo ?? error} hint={hint} className={rangeStyles.dateField}>
      {(control) => (
        <DateInput
          id={control.id}
          name={control.name}
          label={field.label}
          value={draft}
          onChange={setDraft}
          onPick={apply}
          onEnter={() => apply(draft)}
          onBlur={() => apply(draft)}
          invalid={control["aria-invalid"]}
          describedBy={control["aria-describedby"]}
        />
      )}
    </Field>
  );
}

/**
 * Free text with suggestions (known values, each with a readable label): calls back, trimmed, on
 * Enter, on leaving the field, or on picking a suggestion, not on every keystroke. The label of the
 * value applied is shown under the field. `note` (how the value is matched) is read with the
 * field's help, not shown: a line under one field would lift its box out of the filters' row.
 */
export function SuggestField({
  value,
  suggestions,
  onChange,
  placeholder,
  note,
  ...field
}: FieldProps & { suggestions: ReadonlyArray<string | Option>; placeholder?: string; note?: string }) {
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
  const options = suggestions.map((o) => (typeof o === "string" ? { value: o, label: "" } : o));
  const appliedLabel = options.find((o) => o.value === value)?.label;
  return (
    <Field
      {...field}
      hint={appliedLabel ? <span data-testid={`${field.name}-label`}>{appliedLabel}</span> : undefined}
      help={note ? `${note} Pick a suggestion or type any value, then press Enter` : "Pick a suggestion or type any value, then press Enter"}
    >
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
          <datalist id={`${control.id}-list`}>
            {options.map((o) => (
              <option key={o.value} value={o.value} label={o.label || undefined} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
