"use client";
// A date typed by keyboard or picked: a text field that takes `YYYY-MM-DD` as typed (a native date
// input sends half-typed values such as `0002-11-01` while the year is still being typed), and a
// button that opens the browser's own calendar, used only as a picker. The caller decides when a
// value applies (Enter, Apply, leaving the field); a picked date is handed over at once.
import { useId, useRef } from "react";
import { CalendarIcon } from "@/components/shell/shell-icons";
import styles from "./range.module.css";

export type DateInputProps = {
  id?: string;
  name: string;
  /** The field's visible name; the picker button is named after it. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A date picked from the calendar (the caller usually applies it at once). */
  onPick?: (value: string) => void;
  /** Enter in the field (the page's form is not submitted by it). */
  onEnter?: () => void;
  onBlur?: () => void;
  invalid?: boolean;
  describedBy?: string;
  testId?: string;
};

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function DateInput({ id, name, label, value, onChange, onPick, onEnter, onBlur, invalid, describedBy, testId }: DateInputProps) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const picker = useRef<HTMLInputElement>(null);
  return (
    <span className={styles.dateInput}>
      <input
        id={inputId}
        name={name}
        type="text"
        inputMode="numeric"
        className="input"
        placeholder="YYYY-MM-DD"
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        value={value}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && onEnter) {
            e.preventDefault();
            onEnter();
          }
        }}
        onBlur={onBlur}
      />
      <button
        type="button"
        className={styles.pickButton}
        aria-label={`Open a calendar for ${label}`}
        title="Pick from a calendar"
        onClick={() => {
          const el = picker.current;
          if (!el) return;
          el.value = CALENDAR_DATE.test(value) ? value : "";
          // showPicker is the supported way to open it (Chromium, Firefox, Safari 16+); focus+click otherwise.
          if (typeof el.showPicker === "function") {
            try {
              el.showPicker();
              return;
            } catch {
              // Not allowed here (e.g. in a cross-origin frame): fall through.
            }
          }
          el.click();
        }}
      >
        <CalendarIcon />
      </button>
      {/* Only the picker's calendar is used: the field above is where the value is typed and read. */}
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        className={styles.picker}
        onChange={(e) => {
          const picked = e.target.value;
          if (!CALENDAR_DATE.test(picked)) return;
          onChange(picked);
          onPick?.(picked);
        }}
      />
    </span>
  );
}
