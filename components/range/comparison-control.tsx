"use client";
// The header's comparison, beside the range on the pages that show changes: what every change on the
// page compares with — the previous period (the default), the same dates a year before, or a custom
// window of as many days as the range, given by its first day (its last follows). Carried in the URL
// like the range (lib/range/comparison.ts); a bad value in a URL is said on the control, and the
// previous period is used meanwhile.
import { usePathname } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { ChevronDownIcon } from "@/components/shell/shell-icons";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { calendarDayNumber } from "@/lib/data-api/params";
import { formatDateRange } from "@/lib/format/format";
import { previousRange } from "@/lib/range/date-range";
import { comparisonButtonLabel, customWindowFrom, yearBeforeRange, type CompareKind } from "@/lib/range/comparison";
import { useSharedView } from "@/components/shares/shared-view";
import { useComparison } from "@/lib/range/use-comparison";
import { comparisonProblemText } from "@/lib/ui/messages";
import { isQueryPage, PAGE_PARAMS } from "@/lib/ui/page-params";
import { DateInput } from "./date-input";
import styles from "./range.module.css";

/** Whether a page shows changes (it takes `compare`), so the chooser belongs beside its range. */
export function pageCompares(pathname: string): boolean {
  return isQueryPage(pathname) && (PAGE_PARAMS[pathname] as readonly string[]).includes("compare");
}

export function ComparisonControl() {
  // On a shared page (/s/{token}) the page is the one the link shares.
  const shared = useSharedView();
  const pathname = usePathname();
  return pageCompares(shared?.path ?? pathname) ? <ComparisonChooser /> : null;
}

function ComparisonChooser() {
  const { comparison, range, problem, setComparison } = useComparison();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<CompareKind>("previous");
  const [start, setStart] = useState("");
  const [startError, setStartError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  useDismissOutside(root, open, () => setOpen(false), { focus: true });

  function openPanel() {
    setKind(comparison.kind);
    setStart(comparison.kind === "custom" ? comparison.from : previousRange(range).from);
    setStartError(null);
    setOpen(true);
  }

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (kind !== "custom") {
      setComparison({ kind });
      close(true);
      return;
    }
    const from = start.trim();
    if (calendarDayNumber(from) === null) {
      setStartError(comparisonProblemText({ param: "compare_from", reason: "not_a_date" }));
      return;
    }
    setComparison({ kind: "custom", ...customWindowFrom(range, from) });
    close(true);
  }

  const custom = kind === "custom" && calendarDayNumber(start.trim()) !== null ? customWindowFrom(range, start.trim()) : null;
  const options: { kind: CompareKind; label: string; dates: string | null }[] = [
    { kind: "previous", label: "Previous period", dates: formatDateRange(previousRange(range)) },
    { kind: "year", label: "Same days a year before", dates: formatDateRange(yearBeforeRange(range)) },
    { kind: "custom", label: "Custom", dates: null },
  ];
  const label = problem ? "Check the comparison" : comparisonButtonLabel(range, comparison);

  return (
    <div
      className={`${styles.root} ${styles.comparison}`}
      ref={root}
      data-testid="comparison-control"
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
        className={`header-button ${styles.trigger} ${problem ? styles.triggerInvalid : ""}`}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid="comparison-button"
        onClick={() => (open ? close(false) : openPanel())}
      >
        <span className="visually-hidden">Changes compared with: </span>
        <span className={styles.triggerMain} data-testid="comparison-label">
          {label}
        </span>
        <ChevronDownIcon />
      </button>
      {open && (
        <div id={panelId} className={`popover ${styles.panel}`} role="dialog" aria-label="Compare with" data-testid="comparison-panel">
          {problem && (
            <span className="field-error" data-testid="comparison-error">
              {comparisonProblemText(problem)}
            </span>
          )}
          <form className="stack" style={{ gap: "0.75rem" }} onSubmit={submit} noValidate>
            <fieldset className={styles.choices}>
              <legend className={styles.customTitle}>Compare changes with</legend>
              {options.map((o) => (
                <label key={o.kind} className={styles.choice}>
                  <input
                    type="radio"
                    name="compare"
                    value={o.kind}
                    checked={kind === o.kind}
                    onChange={() => setKind(o.kind)}
                    data-testid={`comparison-${o.kind}`}
                  />
                  <span>
                    {o.label}
                    {o.dates && <span className={styles.triggerDetail}> {o.dates}</span>}
                  </span>
                </label>
              ))}
            </fieldset>
            {kind === "custom" && (
              <div className="field">
                <label htmlFor={`${panelId}-start`}>First day</label>
                <DateInput
                  id={`${panelId}-start`}
                  name="compare_from"
                  label="First day"
                  value={start}
                  onChange={(v) => {
                    setStart(v);
                    setStartError(null);
                  }}
                  onEnter={() => submit()}
                  invalid={Boolean(startError)}
                  describedBy={`${panelId}-start-help${startError ? ` ${panelId}-start-error` : ""}`}
                  testId="comparison-from"
                />
                {startError && (
                  <span id={`${panelId}-start-error`} className="field-error" data-testid="comparison-from-error">
                    {startError}
                  </span>
                )}
                <span id={`${panelId}-start-help`} className="muted small" data-testid="comparison-custom-window">
                  {custom ? `Compares with ${formatDateRange(custom)}: as many days as the range.` : "The window has as many days as the range."}
                </span>
              </div>
            )}
            <div className={styles.customActions}>
              <button type="submit" className="button button-small" data-testid="comparison-apply">
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
