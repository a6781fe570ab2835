"use client";
// /queries: the questions put to AI platforms whose answers mention the brand, most mentioned first
// (one row per question however it was written: trimmed and lower-cased), with mentions per
// platform, average, best and worst position, the share of its mentions naming the brand first, and
// the sentiment split. Filters (a platform, "never first") live in the URL. A question opens its
// mentions of the range (of the platform filtered on) on /mentions, filtered by `query` the way this
// page groups questions, so the list's total is the row's figure.
// The questions (a table where it fits, a card each on a phone; each figure sorts them, `sort` in the
// URL; the questions' totals close them) are components/queries/questions-table.tsx.
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useId } from "react";
import { SelectField } from "@/components/filters/fields";
import { Counting, WindowNote } from "@/components/platforms/range-notes";
import { queriesRouteQuery, queryFiltersOf, type QueryFilters } from "@/components/queries/queries-data";
import { QuestionsTable } from "@/components/queries/questions-table";
import styles from "@/components/queries/queries.module.css";
import { EmptyState, PendingAnswer, QueryView, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { ReadNote } from "@/components/ui/read-note";
import type { CardHead } from "@/components/ui/card";
import { LABELS, PLATFORMS } from "@/lib/data-api/constants";
import { formatDateRange, formatNumber, formatZone, MISSING } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { invalidParamOf } from "@/lib/queries/error-status";
import type { DateRange } from "@/lib/range/date-range";
import { useDateRange } from "@/lib/range/use-date-range";
import { filterProblemText } from "@/lib/ui/messages";
import { useHydrated } from "@/lib/ui/use-hydrated";
import { queriesSearchParams } from "./search-params";

const CARD = {
  title: "Questions that mention us",
  description: "Per question: mentions by platform, the brand's position, how often it is named first, and sentiment",
  testId: "queries-card",
} satisfies CardHead;

const questionsQuery = (range: DateRange, filters: QueryFilters) => apiQuery(browserApi, "/insights/queries", { query: queriesRouteQuery(range, filters) });

export function QueriesClient() {
  const { range } = useDateRange();
  const [values, setValues] = useQueryStates(queriesSearchParams, { history: "push" });
  const filters = queryFiltersOf(values);
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Queries</h1>
          <p>
            {formatDateRange(range)} ({formatZone(range.tz)}): the questions people put to AI platforms whose answers mention the brand, and where the brand
            stands in them.
          </p>
        </div>
      </div>
      <QueryFiltersForm filters={filters} range={range} onChange={(next) => void setValues(next)} />
      <Widget what="the questions" card={CARD} loading={<Counting range={range} what="the questions of the range's mentions" lines={8} />}>
        <QuestionsCard range={range} filters={filters} />
      </Widget>
    </div>
  );
}

function QueryFiltersForm({
  filters,
  range,
  onChange,
}: {
  filters: QueryFilters;
  range: DateRange;
  onChange: (next: { platform?: string | null; never_first?: string | null }) => void;
}) {
  // The route's refusal of a filter is said on its field: the table's own query, read from the cache
  // without suspending (the form stays while the table loads).
  // Once hydrated: the answer may reach the browser before hydration, and the form must match the server's HTML until then.
  const hydrated = useHydrated();
  const answer = useQuery(questionsQuery(range, filters));
  const refused = hydrated ? invalidParamOf(answer.error)?.param : undefined;
  const error = (param: string) => (refused === param ? filterProblemText(param) : undefined);
  const noteId = useId();
  return (
    <form className={`card ${styles.filters}`} onSubmit={(e) => e.preventDefault()} data-testid="query-filters" aria-label="Filters">
      <fieldset className="filters-fields">
        <legend className="visually-hidden">Filters</legend>
        <SelectField
          name="platform"
          label="Platform"
          value={filters.platform ?? ""}
          error={error("platform")}
          onChange={(v) => onChange({ platform: v === "" ? null : v })}
          options={PLATFORMS.map((p) => ({ value: p, label: LABELS[p] ?? p }))}
        />
        <div className={`field ${styles.checkField}`}>
          <label className={styles.check}>
            <input
              type="checkbox"
              name="never_first"
              checked={filters.neverFirst}
              onChange={(e) => onChange({ never_first: e.target.checked ? "true" : null })}
              aria-describedby={noteId}
              data-testid="never-first"
            />
            Never named first
          </label>
          <span id={noteId} className={`muted small ${styles.checkNote}`}>
            Only the questions where no answer put the brand first.
          </span>
        </div>
      </fieldset>
    </form>
  );
}

function QuestionsCard({ range, filters }: { range: DateRange; filters: QueryFilters }) {
  const query = useWidgetQuery(questionsQuery(range, filters));
  const filtered = filters.platform !== null || filters.neverFirst;
  return (
    <QueryView
      query={query}
      isEmpty={(q) => q.data.length === 0 && !q.unreadable}
      empty={
        <EmptyState title={filtered ? "No question matches these filters in this range" : "No mention with a question in this range"}>
          {filtered ? "Try another platform, or show the questions where the brand was named first too." : "Pick a longer or earlier range in the header."}
        </EmptyState>
      }
    >
      {(q) => (
        <PendingAnswer pending={query.isPlaceholderData} className="stack">
          <WindowNote answer={q} range={range} pending={query.isPlaceholderData} />
          <UnreadableNotice unreadable={q.unreadable} noun={["mention", "mentions"]} />
          <QuestionsTable answer={q} filters={filters} />
          <p className="small muted" data-testid="queries-link-note">
            A question opens its {filters.platform ? `${LABELS[filters.platform] ?? filters.platform} ` : ""}mentions of the range, as many as its figure here.
          </p>
          <p className="small muted" data-testid="queries-total-note">
            The totals after the questions add up their mentions; an average position and the share named first cannot be added up from the questions&apos; own,
            so they read {MISSING} there.
          </p>
          {q.other && (
            <p className="small muted" data-testid="queries-other-note">
              {formatNumber(q.other.mentions)} mention{q.other.mentions === 1 ? "" : "s"} of questions past a day&apos;s 500 most asked are counted in no
              question above.
            </p>
          )}
          <ReadNote answer={q} readAt={query.dataUpdatedAt} className="small muted" />
        </PendingAnswer>
      )}
    </QueryView>
  );
}
