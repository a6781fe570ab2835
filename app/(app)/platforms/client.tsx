"use client";
// /platforms: per AI platform the chain mentions -> visitors -> conversions -> rate with sentiment
// and average position, each against the header's comparison (the previous period by default), sentiment over time, and the competitors
// named with the brand (share of voice), over the app's date range. Each widget loads, streams and fails on its own, says
// what it is still counting, and labels the window its numbers cover (from the answer itself, so a
// previous range's numbers still on screen while the next ones load are never mislabelled).
import { useMemo } from "react";
import { COMPETITOR_TABLE_COLUMNS, COMPETITOR_TABLE_SORT, competitorRowKey, type CompetitorTableRow } from "@/components/data-table/columns/competitors";
import { DataTable } from "@/components/data-table/data-table";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { SortMenu } from "@/components/data-table/sort-controls";
import { useTableSort } from "@/components/data-table/use-table-sort";
import { PlatformChain, PlatformsTotal } from "@/components/platforms/platform-chain";
import { mentionsHref, PLATFORM_SORT, PLATFORM_SORT_LABELS, platformTotals, previousWindowLabel } from "@/components/platforms/platforms-data";
import { Counting, WindowNote } from "@/components/platforms/range-notes";
import styles from "@/components/platforms/platforms.module.css";
import { SentimentOverTime } from "@/components/platforms/sentiment-over-time";
import { EmptyState, PendingAnswer, QueryView } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { cardFrame, type CardHead } from "@/components/ui/card";
import { COMPETITOR_COLUMNS } from "@/lib/columns/competitors";
import { formatDateRange, formatNumber, formatZone, sortPlatforms } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import type { Comparison } from "@/lib/range/comparison";
import { insightsQuery, useComparison } from "@/lib/range/use-comparison";
import type { CompetitorsInsight } from "@/lib/insights/competitors";
import type { PlatformsInsight } from "@/lib/insights/platforms";

/** The page's cards, whatever the state of their answers. */
const CARDS = {
  platforms: {
    title: "From mention to conversion",
    description: "Per AI platform: mentions, the visitors it sent, conversions and rate; sentiment and average position",
    testId: "platforms-card",
  },
  sentiment: {
    title: "Sentiment over time",
    description: "How AI platforms talked about the brand, mentions by sentiment per day (per week beyond 31 days)",
    testId: "sentiment-card",
  },
  competitors: {
    title: "Competitors named with us",
    description: "Share of voice: how many of the range's mentions name each competitor",
    testId: "competitors-card",
  },
} satisfies Record<string, CardHead>;

export function PlatformsClient() {
  const { range, comparison } = useComparison();
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>AI platforms</h1>
          <p>
            {formatDateRange(range)} ({formatZone(range.tz)}): which AI platforms mention the brand, how they talk about it, and whether the visitors they send
            convert.
          </p>
        </div>
      </div>
      <Widget what="the AI platforms" card={CARDS.platforms} loading={<Counting range={range} what="mentions and visitors" lines={8} />}>
        <PlatformsCard range={range} comparison={comparison} />
      </Widget>
      <Widget what="sentiment over time" card={CARDS.sentiment} loading={<Counting range={range} what="mentions by sentiment" lines={5} />}>
        <SentimentCard range={range} />
      </Widget>
      <Widget what="the competitors named" frame={competitorsFrame} loading={<Counting range={range} what="the competitors named in mentions" lines={5} />}>
        <CompetitorsCard range={range} />
      </Widget>
    </div>
  );
}

function PlatformsCard({ range, comparison }: { range: DateRange; comparison: Comparison }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/insights/platforms", { query: insightsQuery(range, comparison) }));
  return (
    <QueryView query={query}>
      {(p) => (
        <PendingAnswer pending={query.isPlaceholderData} className="stack">
          <WindowNote answer={p} range={range} pending={query.isPlaceholderData} compared />
          <PlatformList answer={p} />
          {p.unreadable && (
            <p className="notice notice-warning small" data-testid="unreadable-notice">
              {formatNumber(p.unreadable.count)} mention{p.unreadable.count === 1 ? "" : "s"} of these days could not be placed in a day or a platform and{" "}
              {p.unreadable.count === 1 ? "is" : "are"} not counted above.
            </p>
          )}
        </PendingAnswer>
      )}
    </QueryView>
  );
}

/** The platforms' chains in their own order or sorted by a figure (`sort`), then all of them together. */
function PlatformList({ answer }: { answer: PlatformsInsight }) {
  const rows = useMemo(() => sortPlatforms(answer.data, (r) => r.platform), [answer.data]);
  const sort = useTableSort(rows, { param: "sort", columns: PLATFORM_SORT });
  const window = previousWindowLabel(answer);
  return (
    <>
      <SortMenu sort={sort} labels={PLATFORM_SORT_LABELS} ownOrder="Platform order" testId="platforms-sort" />
      <ul className={styles.list} aria-label="AI platforms">
        {sort.rows.map((row) => (
          <PlatformChain key={row.platform} row={row} range={answer} window={window} />
        ))}
        <PlatformsTotal total={platformTotals(answer.data)} window={window} />
      </ul>
    </>
  );
}

function SentimentCard({ range }: { range: DateRange }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/insights/sentiment", { query: rangeParams(range) }));
  return (
    <QueryView
      query={query}
      isEmpty={(s) => s.data.every((p) => p.positive + p.neutral + p.negative === 0) && !s.unreadable}
      empty={<EmptyState title="No mentions in this range">Mentions by AI platforms show here by sentiment.</EmptyState>}
    >
      {(s) => (
        <PendingAnswer pending={query.isPlaceholderData} className="stack">
          <WindowNote answer={s} range={range} pending={query.isPlaceholderData} />
          <SentimentOverTime answer={s} />
        </PendingAnswer>
      )}
    </QueryView>
  );
}

const competitorsFrame = cardFrame(CARDS.competitors);

function toCompetitorRows(c: CompetitorsInsight): CompetitorTableRow[] {
  // Each name opens the range's mentions naming it: the dashboard filters them itself (lib/lists).
  return c.data.map((r) => ({ name: r.name, mentions: r.mentions, share: r.share, ...r.sentiment, href: mentionsHref(c, { competitor: r.name }) }));
}

function CompetitorsCard({ range }: { range: DateRange }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/insights/competitors", { query: rangeParams(range) }));
  const rows = useMemo(() => (query.data ? toCompetitorRows(query.data) : []), [query.data]);
  return competitorsFrame(
    <QueryView
      query={query}
      isEmpty={(c) => c.data.length === 0 && !c.unreadable}
      empty={<EmptyState title="No competitor named in this range's mentions">Mentions that name a competitor beside the brand show here.</EmptyState>}
    >
      {(c) => (
        <PendingAnswer pending={query.isPlaceholderData} className="stack">
          <WindowNote answer={c} range={range} pending={query.isPlaceholderData} />
          <p className="small" data-testid="competitors-total">
            {formatNumber(c.mentions)} mentions in the range; a mention can name several competitors, so shares need not add up to 100%.
          </p>
          <DataTable
            rows={rows}
            columns={COMPETITOR_TABLE_COLUMNS}
            caption="Competitors named with the brand"
            rowKey={competitorRowKey}
            testId="competitors-table"
            rowTestId="competitor-row"
            sort={COMPETITOR_TABLE_SORT}
          />
          <p className="small muted" data-testid="competitor-link-note">
            A competitor&apos;s name opens the range&apos;s mentions naming it, as many as its figure here.
          </p>
        </PendingAnswer>
      )}
    </QueryView>,
    rows.length > 0 ? <CsvDownloadButton filename={`competitors_${range.from}_${range.to}`} columns={COMPETITOR_COLUMNS} rows={rows} /> : undefined,
  );
}
