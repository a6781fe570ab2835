"use client";
// The questions of /queries as a table: per question its mentions in all and per platform, average,
// best and worst position, the share named first and the sentiment split (a count per column), each
// column sorting the table (`sort` in the URL: components/data-table/use-table-sort.ts), and the
// questions' totals under them where they add up. The page gives where a question leads.
import Link from "next/link";
import { useMemo, type ReactNode } from "react";
import { SortHeader } from "@/components/data-table/sort-controls";
import sortStyles from "@/components/data-table/sort.module.css";
import { useTableSort } from "@/components/data-table/use-table-sort";
import { LABELS, PLATFORMS } from "@/lib/data-api/constants";
import { formatDateRange, formatDecimal, formatNumber, formatPercent, MISSING } from "@/lib/format/format";
import type { Sentiments } from "@/lib/server/insights/mentions";
import type { QueriesInsight } from "@/lib/server/insights/queries";
import { QUESTION_DEFAULT_SORT, QUESTION_SORT, questionTotals, type QueryFilters, type QueryRow } from "./queries-data";
import styles from "./queries.module.css";

/** The questions, sortable by each column (`sort` in the URL), with their totals under them. */
export function QuestionsTable({
  answer,
  filters,
  questionLink,
}: {
  answer: QueriesInsight;
  filters: QueryFilters;
  /** Where a question leads, and its link's words. */
  questionLink: (row: QueryRow) => { href: string; label: string };
}) {
  const sort = useTableSort(answer.data, { param: "sort", columns: QUESTION_SORT, defaultSort: QUESTION_DEFAULT_SORT });
  const total = useMemo(() => questionTotals(answer.data), [answer.data]);
  const numeric = (id: string, label: ReactNode) => (
    <SortHeader key={id} sort={sort} id={id} className={styles.numeric}>
      {label}
    </SortHeader>
  );
  return (
    <div className={styles.tableScroll}>
      <table className={`table ${styles.questions}`} data-testid="queries-table">
        <caption className="visually-hidden">
          Questions that mention the brand, {formatDateRange(answer)}
          {filters.platform ? `, on ${LABELS[filters.platform] ?? filters.platform}` : ""}
          {filters.neverFirst ? ", never named first" : ""}
        </caption>
        <thead>
          <tr>
            <SortHeader sort={sort} id="query">
              Question
            </SortHeader>
            {numeric("mentions", "Mentions")}
            {PLATFORMS.map((p) => numeric(p, LABELS[p] ?? p))}
            {numeric("avg_position", "Avg. position")}
            {numeric("best_position", "Best")}
            {numeric("worst_position", "Worst")}
            {numeric("first_share", "Named first")}
            {numeric("positive", <span className={styles.positive}>Positive</span>)}
            {numeric("neutral", <span className={styles.neutral}>Neutral</span>)}
            {numeric("negative", <span className={styles.negative}>Negative</span>)}
          </tr>
        </thead>
        <tbody>
          {sort.rows.map((r) => (
            <tr key={r.key} data-testid="query-row" data-key={r.key}>
              <th scope="row" className={`${styles.rowHead} ${styles.question}`}>
                <Link href={questionLink(r).href} prefetch={false} aria-label={questionLink(r).label}>
                  {r.query}
                </Link>
              </th>
              <td className={styles.numeric}>{formatNumber(r.mentions)}</td>
              {PLATFORMS.map((p) => (
                <td key={p} className={styles.numeric}>
                  {formatNumber(r.platforms[p])}
                </td>
              ))}
              <td className={styles.numeric}>{formatDecimal(r.avg_position)}</td>
              <td className={styles.numeric}>{formatNumber(r.best_position)}</td>
              <td className={styles.numeric}>{formatNumber(r.worst_position)}</td>
              <td className={styles.numeric}>{formatPercent(r.first_share)}</td>
              <SentimentCells sentiment={r.sentiment} />
            </tr>
          ))}
        </tbody>
        <tfoot className={sortStyles.totals}>
          <tr data-testid="queries-total">
            <th scope="row" className={`${styles.rowHead} ${styles.question}`}>
              {answer.data.length === 1 ? "The question" : `All ${formatNumber(answer.data.length)} questions`}
            </th>
            <td className={styles.numeric}>{formatNumber(total.mentions)}</td>
            {PLATFORMS.map((p) => (
              <td key={p} className={styles.numeric}>
                {formatNumber(total.platforms[p])}
              </td>
            ))}
            <td className={styles.numeric}>{MISSING}</td>
            <td className={styles.numeric}>{formatNumber(total.best_position)}</td>
            <td className={styles.numeric}>{formatNumber(total.worst_position)}</td>
            <td className={styles.numeric}>{MISSING}</td>
            <SentimentCells sentiment={total.sentiment} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function SentimentCells({ sentiment }: { sentiment: Sentiments }) {
  return (
    <>
      <td className={styles.numeric}>{formatNumber(sentiment.positive)}</td>
      <td className={styles.numeric}>{formatNumber(sentiment.neutral)}</td>
      <td className={styles.numeric}>{formatNumber(sentiment.negative)}</td>
    </>
  );
}
