"use client";
// The header's date range: a button naming the range and, next to it, the time zone its days are
// counted in; it opens a panel with the presets (Today, 7, 30, 90 days; All time on the lists) and a
// custom range typed by keyboard or picked, applied on Enter or Apply. A range is checked before it
// applies (by the routes' own schema), and a URL's bad value is shown on its field, in plain words. On a
// page the range does not drive (range-scope.ts) the control gives way to a plain note of what that
// page shows, and of the range kept for the others.
import { AppLink as Link } from "@/components/shares/shared-view";
import { usePathname } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { ChevronDownIcon, CalendarIcon } from "@/components/shell/shell-icons";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { formatDateRange, formatDateTime, formatDay, formatZone } from "@/lib/format/format";
import { presetOf, presetRange, RANGE_PRESETS, resolveDateRange, type DateRange, type RangeProblems } from "@/lib/range/date-range";
import { resolveListRange } from "@/lib/range/list-range";
import { timeZoneChoices } from "@/lib/range/viewer-time-zone";
import { rangeProblemText } from "@/lib/ui/messages";
import { DateInput } from "./date-input";
import { rangeNotUsedNote } from "./range-scope";
import { useAppRange, type AppRange } from "./use-app-range";
import styles from "./range.module.css";

type Draft = { from: string; to: string; tz: string };

/** The custom range's two date fields, in order. */
const END_FIELDS = [
  { end: "from", label: "From" },
  { end: "to", label: "To" },
] as const;

/** What the button says: the preset or the dates, "All time" for a list without a range. */
function buttonLabel(state: AppRange): { main: string; detail?: string } {
  const { range, explicit, problems, instants, listPage, nowMs } = state;
  if (problems.from || problems.to || problems.tz || state.badRelative !== null) return { main: "Check the range" };
  if (!explicit) {
    if (listPage) return { main: "All time" };
    return { main: "Last 30 days", detail: formatDateRange(range) };
  }
  if (instants.from || instants.to) {
    const from = instants.from ? formatDateTime(instants.from, range.tz) : formatDay(range.from);
    const to = instants.to ? formatDateTime(instants.to, range.tz) : formatDay(range.to);
    return { main: `${from} – ${to}` };
  }
  const preset = RANGE_PRESETS.find((p) => p.id === presetOf(range, nowMs));
  if (preset) return { main: preset.id === "today" ? "Today" : `Last ${preset.label}`, detail: formatDateRange(range) };
  return { main: formatDateRange(range) };
}

/** A typed range's problems, by the same rules as the page that will read it. */
function checkDraft(draft: Draft, state: AppRange): RangeProblems {
  const problems: RangeProblems = {};
  if (!draft.from) problems.from = "missing";
  if (!draft.to) problems.to = "missing";
  if (!draft.tz) problems.tz = "missing";
  if (problems.from || problems.to || problems.tz) return problems;
  // The page's own zone is the fallback the reading needs, never the typed one: a typed zone that is
  // not one would make the fallback range itself fail (it threw, and the field said nothing).
  return state.listPage ? resolveListRange(draft, state.nowMs).problems : resolveDateRange(draft, state.range.tz, state.nowMs).problems;
}

export function RangeControl() {
  const note = rangeNotUsedNote(usePathname());
  return note ? <RangeNotUsed note={note} /> : <RangePicker />;
}

/** In place of the control: what the page shows, and the range kept in the URL for the other pages. */
function RangeNotUsed({ note }: { note: string }) {
  const { range, explicit, problems } = useAppRange();
  const kept = explicit && !problems.from && !problems.to && !problems.tz;
  return (
    <p className={styles.notUsed} data-testid="range-not-used">
      <CalendarIcon />
      <span>
        {note}
        {kept && ` Your range, ${formatDateRange(range)}, stays for the other pages.`}
      </span>
    </p>
  );
}

function RangePicker() {
  const state = useAppRange();
  const { range, explicit, problems, listPage, nowMs, raw } = state;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>({ from: "", to: "", tz: "" });
  const [draftProblems, setDraftProblems] = useState<RangeProblems>({});
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const tzHelpId = useId();
  const invalid = Boolean(problems.from || problems.to || problems.tz || state.badRelative !== null);
  const label = buttonLabel(state);
  const currentPreset = explicit && !invalid ? presetOf(range, nowMs) : null;

  function openPanel() {
    // The fields start from what the URL says, a bad value included, so its message has its text.
    setDraft({ from: raw.from ?? range.from, to: raw.to ?? range.to, tz: raw.tz ?? range.tz });
    setDraftProblems(problems);
    setOpen(true);
  }

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  // A click outside or focus leaving the control closes the panel; Escape closes it from anywhere.
  useDismissOutside(root, open, () => setOpen(false), { focus: true });

  function apply(next: DateRange | null) {
    state.setRange(next);
    close(true);
  }

  function submit(e?: FormEvent) {
    e?.preventDefault();
    const typed = { from: draft.from.trim(), to: draft.to.trim(), tz: draft.tz.trim() };
    const found = checkDraft(typed, state);
    setDraftProblems(found);
    if (found.from || found.to || found.tz) return;
    apply(typed);
  }

  const fieldError = (key: keyof Draft) => {
    const problem = draftProblems[key];
    return problem ? (
      <span id={`${panelId}-${key}-error`} className="field-error" data-testid={`range-error-${key}`}>
        {rangeProblemText(key, problem)}
      </span>
    ) : null;
  };
  const describe = (key: keyof Draft, extra?: string) =>
    [draftProblems[key] ? `${panelId}-${key}-error` : "", extra ?? ""].filter(Boolean).join(" ") || undefined;

  return (
    <div
      className={styles.root}
      ref={root}
      data-testid="range-control"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          close(true);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`header-button ${styles.trigger} ${invalid ? styles.triggerInvalid : ""}`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid="range-button"
        onClick={() => (open ? close(false) : openPanel())}
      >
        <CalendarIcon />
        <span className="visually-hidden">Date range: </span>
        <span className={styles.triggerMain} data-testid="range-label">
          {label.main}
        </span>
        {label.detail && <span className={styles.triggerDetail}>{label.detail}</span>}
        <ChevronDownIcon />
      </button>
      <span className={styles.zone} data-testid="range-tz" data-tz={range.tz} title={`Days are counted, and times shown, in ${range.tz}`}>
        <span className="visually-hidden">Time zone: </span>
        {formatZone(range.tz)}
      </span>
      {open && (
        <div id={panelId} className={`popover ${styles.panel}`} role="dialog" aria-label="Date range" data-testid="range-panel">
          {state.badRelative !== null && (
            <span className="field-error" data-testid="range-error-range">
              {rangeProblemText("range", "not_a_preset")}
            </span>
          )}
          <div className={styles.presets} role="group" aria-label="Presets">
            {RANGE_PRESETS.map((p) => (
              <button
                key={p.id}
                type="button"
                aria-pressed={currentPreset === p.id}
                data-testid={`range-preset-${p.id}`}
                onClick={() => apply(presetRange(p.days, range.tz, nowMs))}
              >
                {p.label}
              </button>
            ))}
            {listPage && (
              <button type="button" aria-pressed={!explicit && !invalid} data-testid="range-preset-all" onClick={() => apply(null)}>
                All time
              </button>
            )}
          </div>
          <form className={styles.custom} onSubmit={submit} noValidate aria-label="Custom range">
            <p className={styles.customTitle} aria-hidden="true">
              Custom
            </p>
            {END_FIELDS.map(({ end, label }) => (
              <div className="field" key={end}>
                <label htmlFor={`${panelId}-${end}`}>{label}</label>
                <DateInput
                  id={`${panelId}-${end}`}
                  name={end}
                  label={label}
                  value={draft[end]}
                  onChange={(value) => setDraft((d) => ({ ...d, [end]: value }))}
                  onEnter={() => submit()}
                  invalid={Boolean(draftProblems[end])}
                  describedBy={describe(end)}
                  testId={`range-${end}`}
                />
                {fieldError(end)}
              </div>
            ))}
            <div className={`field ${styles.tzField}`}>
              <label htmlFor={`${panelId}-tz`}>Time zone</label>
              <input
                id={`${panelId}-tz`}
                name="tz"
                className="input"
                list={`${panelId}-zones`}
                value={draft.tz}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={draftProblems.tz ? true : undefined}
                aria-describedby={describe("tz", tzHelpId)}
                data-testid="range-tz-input"
                onChange={(e) => setDraft((d) => ({ ...d, tz: e.target.value }))}
              />
              <TimeZoneList id={`${panelId}-zones`} />
              {fieldError("tz")}
              <span id={tzHelpId} className="muted small">
                For this view only. Your default is in <Link href="/settings">Settings</Link>.
              </span>
            </div>
            <div className={styles.customActions}>
              <button type="submit" className="button button-small" data-testid="range-apply">
                Apply
              </button>
              <button type="button" className="button button-secondary button-small" onClick={() => close(true)}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      )}
    </div>
  );
}

function TimeZoneList({ id }: { id: string }) {
  const [zones] = useState(timeZoneChoices);
  return (
    <datalist id={id}>
      {zones.map((z) => (
        <option key={z} value={z} />
      ))}
    </datalist>
  );
}
