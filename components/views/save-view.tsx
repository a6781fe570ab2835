"use client";
// "Save view" beside the header's range, on every page that takes a query (lib/ui/page-params.ts):
// a small dialog that keeps this page and its filters under a name for the whole workspace. When the
// range is one of the presets (Today, 7, 30, 90 days) it asks whether to keep the dates fixed or to
// keep "the last 7 days" relative (saved as `range=7d`, read as the days ending on the day the view
// is opened); another range is kept as its dates, and no range as the page's default. Paging is not
// saved. Errors are said in plain words on the field they are about (a taken name) or under the form.
import { usePathname } from "next/navigation";
import { parseAsString, useQueryStates } from "nuqs";
import { useId, useRef, useState, type FormEvent } from "react";
import { useAppRange, type AppRange } from "@/components/range/use-app-range";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { formatDateRange } from "@/lib/format/format";
import { useViewWrites, ViewProblem } from "@/lib/queries/views";
import { presetOf, RANGE_PRESETS, type RangePresetId } from "@/lib/range/date-range";
import { useViewerTimeZone } from "@/lib/range/use-date-range";
import { isQueryPage, pageParsers, PAGING_PARAMS, type QueryPage } from "@/lib/ui/page-params";
import { BookmarkIcon } from "./view-icons";
import styles from "./views.module.css";

export const MAX_NAME = 80;

/** The preset the header's range is, when the URL sets one as dates (a choice of fixed or relative then). */
export function rangePreset(state: AppRange): RangePresetId | null {
  const { explicit, problems, instants, range, nowMs } = state;
  if (!explicit || problems.from || problems.to || problems.tz || instants.from || instants.to) return null;
  return presetOf(range, nowMs);
}

/** What the relative choice says: "Always the last 7 days", "Always today". */
export function relativeLabel(preset: RangePresetId): string {
  const p = RANGE_PRESETS.find((x) => x.id === preset)!;
  return p.id === "today" ? "Always today" : `Always the last ${p.label}`;
}

/**
 * The page's own parameters of the URL (`values`, read through its declaration), paging left out; a
 * relative range as `range` instead of dates. A relative view is read in its viewer's zone, so the
 * zone the header wrote by default (the saver's own, `viewerTz`) is left out; one chosen for this view
 * is kept.
 */
export function viewQuery(values: Record<string, string | null>, relative: RangePresetId | null, viewerTz: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (!PAGING_PARAMS.includes(name) && value) query[name] = value;
  if (relative) {
    delete query.from;
    delete query.to;
    if (query.tz === viewerTz) delete query.tz;
    query.range = relative;
  }
  return query;
}

export function SaveView() {
  const pathname = usePathname();
  return isQueryPage(pathname) ? <SaveViewButton page={pathname} /> : null;
}

function SaveViewButton({ page }: { page: QueryPage }) {
  const [values] = useQueryStates(pageParsers(page, parseAsString));
  const state = useAppRange();
  const viewerTz = useViewerTimeZone();
  const { save } = useViewWrites();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [keep, setKeep] = useState<"fixed" | "relative">("relative");
  const [problem, setProblem] = useState<{ message: string; field?: "name" } | null>(null);
  const [saved, setSaved] = useState("");
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const preset = rangePreset(state);

  function show() {
    setName("");
    setKeep("relative");
    setProblem(null);
    setSaved("");
    save.reset();
    setOpen(true);
    requestAnimationFrame(() => input.current?.focus());
  }

  function hide(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  useDismissOutside(root, open, () => setOpen(false), { focus: true });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem({ message: "Give the view a name, e.g. “ChatGPT visitors this week”.", field: "name" });
    if ([...trimmed].length > MAX_NAME) return setProblem({ message: `Keep the name to ${MAX_NAME} characters or fewer.`, field: "name" });
    setProblem(null);
    try {
      const view = await save.mutateAsync({ name: trimmed, path: page, query: viewQuery(values, preset && keep === "relative" ? preset : null, viewerTz) });
      setSaved(`Saved “${view.name}”. Open it from Views in the header.`);
      hide(true);
    } catch (error) {
      setProblem(
        error instanceof ViewProblem
          ? { message: error.message, ...(error.field ? { field: error.field } : {}) }
          : { message: "The view could not be saved. Try again." },
      );
      if (error instanceof ViewProblem && error.field === "name") input.current?.focus();
    }
  }

  const nameError = problem?.field === "name" ? problem.message : null;
  const formError = problem && !problem.field ? problem.message : null;
  const fixedText = state.explicit ? `Keep the dates fixed (${formatDateRange(state.range)})` : null;

  return (
    <div
      className={styles.save}
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          hide(true);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`header-button ${styles.saveButton}`}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? hide(false) : show())}
        data-testid="save-view-button"
      >
        <BookmarkIcon />
        <span className="visually-hidden-narrow">Save view</span>
      </button>
      {open && (
        <div id={id} role="dialog" aria-labelledby={`${id}-title`} className={`popover ${styles.dialog}`} data-testid="save-view-dialog">
          <form onSubmit={(e) => void submit(e)} noValidate>
            <h2 id={`${id}-title`} className={styles.dialogTitle}>
              Save this view
            </h2>
            <p className="muted small">This page with its filters and range, for everyone in this workspace.</p>
            <div className="field">
              <label htmlFor={`${id}-name`}>Name</label>
              <input
                ref={input}
                id={`${id}-name`}
                className="input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                autoComplete="off"
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${id}-name-error` : undefined}
                data-testid="save-view-name"
              />
              {nameError && (
                <span id={`${id}-name-error`} className="field-error" data-testid="save-view-name-error">
                  {nameError}
                </span>
              )}
            </div>
            {preset && fixedText ? (
              <fieldset className={styles.choice}>
                <legend className="field-label">Range</legend>
                <label>
                  <input
                    type="radio"
                    name="keep"
                    value="relative"
                    checked={keep === "relative"}
                    onChange={() => setKeep("relative")}
                    data-testid="save-view-relative"
                  />
                  {relativeLabel(preset)}
                </label>
                <label>
                  <input type="radio" name="keep" value="fixed" checked={keep === "fixed"} onChange={() => setKeep("fixed")} data-testid="save-view-fixed" />
                  {fixedText}
                </label>
              </fieldset>
            ) : (
              <p className="small" data-testid="save-view-range-note">
                {fixedText
                  ? `Range: the dates stay fixed (${formatDateRange(state.range)}).`
                  : state.listPage
                    ? "Range: all time."
                    : "Range: the page's default, the last 30 days as of when the view is opened."}
              </p>
            )}
            {formError && (
              <p className="field-error" role="alert" data-testid="save-view-error">
                {formError}
              </p>
            )}
            <div className={styles.actions}>
              <button type="submit" className="button button-small" disabled={save.isPending} data-testid="save-view-submit">
                {save.isPending ? "Saving…" : "Save"}
              </button>
              <button type="button" className="button button-secondary button-small" onClick={() => hide(true)}>
                Cancel
              </button>
            </div>
          </form>
        </div>
      )}
      <span className="visually-hidden" role="status">
        {saved}
      </span>
    </div>
  );
}
