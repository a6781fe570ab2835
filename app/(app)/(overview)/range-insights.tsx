"use client";
// The overview's answers for the app's date range (the header's control, `from`/`to`/`tz` in the
// URL; without them the last 30 days in the viewer's zone): KPI cards with their change against the
// header's comparison (the previous period by default; lib/range/comparison.ts), the trend with the
// comparison window behind it, and conversion by source. Every
// figure is labelled with the window of the answer it comes from, so while a new range is being
// counted the old figures stay dimmed under their own dates and a note says what is being counted:
// nothing partial or stale is ever shown as the new range's answer. Every figure that counts
// visitors opens them (a real link); AI visitors open one list of the four AI platforms' visitors
// (`source=ai`, which the dashboard lists itself), as many as the figure.
import type { QueryKey, UseQueryOptions } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { TrendFigure } from "@/components/charts/chart-figures";
import { ConversionBySourceTable } from "@/components/charts/source-tables";
import { visitorsHref } from "@/components/charts/source-table-data";
import { changeOf, rateOf, toTrendChartData } from "@/components/charts/trend-chart-data";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { EmptyState, PendingAnswer, QueryView, Skeleton } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { cardFrame, type CardHead } from "@/components/ui/card";
import { ChangeBadge } from "@/components/ui/change-badge";
import { ReadNote } from "@/components/ui/read-note";
import { OVERVIEW_COLUMNS, TRAFFIC_COLUMNS } from "@/lib/columns/analytics";
import { AI_SOURCE_GROUP, isAiSource } from "@/lib/data-api/constants";
import { formatDateRange, formatPercent, formatPlatformList, formatZone } from "@/lib/format/format";
import type { SourcesInsight } from "@/lib/insights/sources";
import type { TrendInsight } from "@/lib/insights/trend";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { answerWindow, comparisonLabel, comparisonName, type Comparison, type ComparedAnswer } from "@/lib/range/comparison";
import { type DateRange } from "@/lib/range/date-range";
import { insightsQuery, useComparison } from "@/lib/range/use-comparison";
import { Kpi, KpiSkeleton, PendingNote } from "./kpi";
import styles from "./overview.module.css";
import { figureTest } from "@/lib/stats/significance";

/**
 * The labels of a range's answer: its window, the dates it was compared with (`previous`), that
 * window named ("the same days a year before (…)") and its name in a legend, all read from the answer.
 */
function windowLabels(answer: ComparedAnswer) {
  return {
    window: formatDateRange(answer),
    previous: formatDateRange(answerWindow(answer)),
    compared: comparisonLabel(answer),
    previousName: comparisonName(answer),
  };
}

const rangeQuery = (range: DateRange, comparison: Comparison) => ({ query: insightsQuery(range, comparison) });
/** The KPI cards and the trend card share this query (one request): the cards sum its buckets. */
const trendQuery = (range: DateRange, comparison: Comparison) => apiQuery(browserApi, "/insights/trend", rangeQuery(range, comparison));

/** What a widget says while it counts: the range it is counting, in words. */
const counting = (what: string, range: DateRange) => `Counting ${what} for ${formatDateRange(range)} (${formatZone(range.tz)})…`;

/** The cards of the range's charts and tables, whatever the state of their answers. */
const CARDS = {
  trend: { title: "Trend", description: "Visitors, AI visitors and conversions over the range, the window compared with drawn behind", testId: "trend-card" },
  sources: {
    title: "Conversion by source",
    description: "Visitors, conversions and rate per source, AI platforms set apart; each links to its visitors",
    testId: "sources-card",
  },
} satisfies Record<string, CardHead>;

/** The sources' card, its download among its actions once the answer is in (rendered with it, so the server's HTML and the browser's first render agree). */
const sourcesFrame = cardFrame(CARDS.sources);

export function RangeInsights() {
  const { range, comparison, window } = useComparison();
  const labels = windowLabels({ ...range, compare: window });
  return (
    <section className="stack" aria-labelledby="range-heading" data-testid="range-insights">
      <div className={styles.sectionHeader}>
        <h2 id="range-heading">
          {labels.window} <span className="muted">({formatZone(range.tz)})</span>
        </h2>
        <p data-testid="range-compared">
          The header&apos;s range: days counted in {formatZone(range.tz)}, each figure compared with {labels.compared}.
        </p>
      </div>
      <Widget what="the key metrics of the range" frame={rangeKpiFrame} loading={<RangeLoading text={counting("visitors", range)} kpis />}>
        <RangeKpis range={range} comparison={comparison} />
      </Widget>
      <Widget what="the trend" card={CARDS.trend} loading={<RangeLoading text={counting("visitors per day", range)} />}>
        <TrendCard range={range} comparison={comparison} />
      </Widget>
      <Widget what="conversion by source" frame={sourcesFrame} loading={<RangeLoading text={counting("visitors and conversions by source", range)} />}>
        <SourcesCard range={range} comparison={comparison} />
      </Widget>
    </section>
  );
}

function RangeLoading({ text, kpis }: { text: string; kpis?: boolean }) {
  return (
    <>
      <PendingNote>{text}</PendingNote>
      {kpis ? <KpiSkeleton /> : <Skeleton height={260} />}
    </>
  );
}

/**
 * An insight of the range. `shown` is the window of the figures on screen (the answer's own, which is
 * the previous range's while a new one is counted) and `pending` the note to show meanwhile.
 */
function useRangeInsight<T extends ComparedAnswer>(options: UseQueryOptions<T, Error, T, QueryKey>, range: DateRange, what: string) {
  const query = useWidgetQuery(options);
  const data = query.data;
  const shown: ComparedAnswer = data ? { from: data.from, to: data.to, tz: data.tz, compare: data.compare } : range;
  const pending = query.isPlaceholderData ? counting(what, range) : null;
  return { query, shown, pending, labels: windowLabels(shown) };
}

function rangeKpiFrame(body: ReactNode) {
  return (
    <section aria-labelledby="range-kpi-heading" data-testid="range-kpis">
      <h3 id="range-kpi-heading" className="visually-hidden">
        Key metrics of the range
      </h3>
      {body}
    </section>
  );
}

function RangeKpis({ range, comparison }: { range: DateRange; comparison: Comparison }) {
  const { query, shown, pending, labels } = useRangeInsight(trendQuery(range, comparison), range, "visitors");
  return rangeKpiFrame(
    <QueryView query={query}>
      {(trend) => {
        const { current: now, previous: then } = toTrendChartData(trend).totals;
        const compare = { window: labels.previous };
        return (
          <>
            {pending && <PendingNote>{pending}</PendingNote>}
            <PendingAnswer pending={Boolean(pending)} className="grid grid-kpis">
              <Kpi
                label="Visitors"
                testId="range-kpi-visitors"
                value={now.visitors}
                href={visitorsHref(shown)}
                foot={
                  <ChangeBadge current={now.visitors} previous={then.visitors} significance={figureTest("visitors", now, then)} unit="count" {...compare} />
                }
              />
              <Kpi
                label="AI visitors"
                testId="range-kpi-ai"
                value={now.ai_visitors}
                href={visitorsHref(shown, { source: AI_SOURCE_GROUP })}
                foot={
                  <>
                    <ChangeBadge
                      current={now.ai_visitors}
                      previous={then.ai_visitors}
                      significance={figureTest("ai_visitors", now, then)}
                      unit="count"
                      {...compare}
                    />
                    <span data-testid="range-kpi-ai-share">{formatPercent(now.ai_share)} of visitors</span>
                  </>
                }
              />
              <Kpi
                label="Conversions"
                testId="range-kpi-conversions"
                value={now.conversions}
                href={visitorsHref(shown, { converted: true })}
                foot={
                  <ChangeBadge
                    current={now.conversions}
                    previous={then.conversions}
                    significance={figureTest("conversions", now, then)}
                    unit="count"
                    {...compare}
                  />
                }
              />
              <Kpi
                label="Conversion rate"
                testId="range-kpi-rate"
                display={formatPercent(now.conversion_rate)}
                foot={
                  <ChangeBadge
                    current={now.conversion_rate}
                    previous={then.conversion_rate}
                    significance={figureTest("conversion_rate", now, then)}
                    unit="rate"
                    {...compare}
                  />
                }
              />
            </PendingAnswer>
            <div className={styles.kpiNote}>
              <p className="small muted" data-testid="range-kpi-note">
                {labels.window} ({formatZone(shown.tz)}), changes against {labels.compared}; a visitor counts on the day it was first seen. AI visitors came
                from {formatPlatformList()}.{" "}
                <span data-testid="significance-note">
                  A grey change marked &ldquo;within normal variation&rdquo; is one that chance alone makes with this many visitors; a coloured one is beyond it
                  (chance would make it less than 1 time in 20). Hover or focus a change for its test.
                </span>
              </p>
              {!pending && <KpiDownload trend={trend} />}
            </div>
            <ReadNote answer={trend} readAt={query.dataUpdatedAt} className="small muted" />
          </>
        );
      }}
    </QueryView>,
  );
}

/** The KPI cards as a CSV: each figure, its change against the previous period and its rate. */
function KpiDownload({ trend }: { trend: TrendInsight }) {
  const { current: now, previous: then } = toTrendChartData(trend).totals;
  const rows = [
    { metric: "visitors", total: now.visitors, change: changeOf(now.visitors, then.visitors) },
    { metric: "ai_visitors", total: now.ai_visitors, change: changeOf(now.ai_visitors, then.ai_visitors), rate: now.ai_share },
    { metric: "conversions", total: now.conversions, change: changeOf(now.conversions, then.conversions), rate: now.conversion_rate },
  ];
  return <CsvDownloadButton filename={`overview_${trend.from}_${trend.to}`} columns={OVERVIEW_COLUMNS} rows={rows} />;
}

/** Visitors by source as a CSV: each source's visitors, its share of the range's and its change. */
function SourcesDownload({ sources }: { sources: SourcesInsight }) {
  const total = sources.data.reduce((n, r) => n + r.visitors, 0);
  const rows = sources.data.map((r) => ({
    source: r.source,
    group: isAiSource(r.source) ? "ai" : "other",
    visitors: r.visitors,
    percentage: rateOf(r.visitors, total),
    change: changeOf(r.visitors, r.previous.visitors),
  }));
  return <CsvDownloadButton filename={`sources_${sources.from}_${sources.to}`} columns={TRAFFIC_COLUMNS} rows={rows} />;
}

function TrendCard({ range, comparison }: { range: DateRange; comparison: Comparison }) {
  const { query, pending, labels } = useRangeInsight(trendQuery(range, comparison), range, "visitors per day");
  return (
    <QueryView
      query={query}
      isEmpty={(t) => t.data.every((p) => p.visitors === 0) && t.previous.every((p) => p.visitors === 0)}
      empty={<NoVisitors window={labels.window} />}
    >
      {(t) => (
        <PendingAnswer pending={Boolean(pending)}>
          {pending && <PendingNote>{pending}</PendingNote>}
          <TrendFigure data={toTrendChartData(t)} windowLabel={labels.window} previousLabel={labels.previous} previousName={labels.previousName} />
        </PendingAnswer>
      )}
    </QueryView>
  );
}

function SourcesCard({ range, comparison }: { range: DateRange; comparison: Comparison }) {
  const { query, shown, pending, labels } = useRangeInsight(
    apiQuery(browserApi, "/insights/sources", rangeQuery(range, comparison)),
    range,
    "visitors and conversions by source",
  );
  return sourcesFrame(
    <QueryView query={query} isEmpty={(s) => s.data.every((r) => r.visitors === 0 && r.previous.visitors === 0)} empty={<NoVisitors window={labels.window} />}>
      {(s) => (
        <PendingAnswer pending={Boolean(pending)}>
          {pending && <PendingNote>{pending}</PendingNote>}
          <p className="small muted">
            {labels.window}; changes against {labels.compared}. Each source&apos;s visitors and conversions open them, and so do the AI platforms&apos;
            together.
          </p>
          <ConversionBySourceTable rows={s.data} windowLabel={labels.window} previousLabel={labels.previous} window={shown} />
        </PendingAnswer>
      )}
    </QueryView>,
    query.data && !pending ? <SourcesDownload sources={query.data} /> : undefined,
  );
}

function NoVisitors({ window }: { window: string }) {
  return (
    <EmptyState title={`No visitors first seen in ${window} or the period before`}>
      Pick a longer or earlier range in the header; a visitor counts on the day it was first seen.
    </EmptyState>
  );
}
