"use client";
// The questions of /queries: per question its mentions in all and per platform, average, best and
// worst position, the share named first and the sentiment split, sortable by each (`sort` in the
// URL), and the questions' totals after them. One DataTable over the declared columns
// (components/data-table/columns/questions.tsx): a table where it fits, and on a phone a card per
// question with each figure labelled, a "Sort by" menu over them and the totals as the last card.
// A question opens its mentions of the range (of the platform filtered on).
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { QUESTION_TABLE_COLUMNS, QUESTION_TABLE_SORT, questionRowKey } from "@/components/data-table/columns/questions";
import { LABELS } from "@/lib/data-api/constants";
import { formatDateRange, formatNumber } from "@/lib/format/format";
import type { QueriesInsight } from "@/lib/insights/queries";
import { questionTotals, toQuestionRows, type QueryFilters } from "./queries-data";

export function QuestionsTable({ answer, filters }: { answer: QueriesInsight; filters: QueryFilters }) {
  const rows = useMemo(() => toQuestionRows(answer, filters.platform), [answer, filters.platform]);
  const totals = useMemo(() => {
    const title = rows.length === 1 ? "The question" : `All ${formatNumber(rows.length)} questions`;
    return { title, row: questionTotals(rows, title), testId: "queries-total" };
  }, [rows]);
  const caption = [
    `Questions that mention the brand, ${formatDateRange(answer)}`,
    filters.platform ? `, on ${LABELS[filters.platform] ?? filters.platform}` : "",
    filters.neverFirst ? ", never named first" : "",
  ].join("");
  return (
    <DataTable
      rows={rows}
      columns={QUESTION_TABLE_COLUMNS}
      caption={caption}
      rowKey={questionRowKey}
      testId="queries-table"
      rowTestId="query-row"
      sort={QUESTION_TABLE_SORT}
      totals={totals}
      dense
    />
  );
}
