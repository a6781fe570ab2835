"use client";
// The overview, in two sections that each name their window: the app's date range (range-insights:
// KPIs against the previous period, the trend, conversion by source), then the Data API's rolling
// period (its KPIs, traffic by source, the funnel) and the score with the top of the ranking. Each
// widget has its own query and so its own loading, empty and error state, and streams in on its own
// (components/states/widget.tsx); every figure that stands for visitors links to them.
import { useQueries, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useQueryStates } from "nuqs";
import type { ReactNode } from "react";
import { FunnelFigure } from "@/components/charts/chart-figures";
import { toFunnelChartData } from "@/components/charts/funnel-chart-data";
import { visitorsHref } from "@/components/charts/source-table-data";
import { TrafficFigure } from "@/components/charts/source-tables";
import { toTrafficChartData } from "@/components/charts/traffic-chart-data";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { FUNNEL_COLUMNS, OVERVIEW_COLUMNS, TRAFFIC_COLUMNS } from "@/lib/columns/analytics";
import { EmptyState, QueryView, Skeleton, SkeletonLines, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Card, cardFrame } from "@/components/ui/card";
import { ChangeBadge } from "@/components/ui/change-badge";
import { sortByRank } from "@/components/ui/ranking-data";
import { ScoreSummary } from "@/components/ui/score-summary";
import { AI_SOURCES, PERIODS } from "@/lib/data-api/constants";
import type { PeriodParams } from "@/lib/data-api/params";
import type { Overview, Ranking } from "@/lib/data-api/schemas";
import { formatNumber, formatPercent, MISSING } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { PERIOD_LABELS } from "@/lib/ui/view-filters";
import { Kpi, KpiSkeleton } from "./kpi";
import styles from "./overview.module.css";
import { RangeInsights } from "./range-insights";
import { overviewSearchParams } from "./search-params";

export function OverviewClient({ error }: { error?: string }) {
  const [params] = useQueryStates(overviewSearchParams);
  const periodLabel = PERIOD_LABELS[params.period] ?? params.period;
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Overview</h1>
          <p>Traffic, conversions and how AI platforms see the brand: the date range first, then the last hours or days up to now.</p>
        </div>
      </div>
      <EmptyWorkspaceNotice />
      <RangeInsights />
      <section className="stack" aria-labelledby="rolling-heading" data-testid="rolling-section">
        <div className={styles.sectionHeader}>
          <div>
            <h2 id="rolling-heading">{periodLabel}, rolling</h2>
            <p>
              Apart from the header&apos;s range: the last {PERIOD_SPANS[params.period]} up to this moment, not whole calendar days; changes compare with the{" "}
              {PERIOD_SPANS[params.period]} before.
            </p>
          </div>
          <nav className="segmented" aria-label="Rolling period">
            {PERIODS.map((p) => (
              <Link key={p} href={`/?period=${p}`} aria-current={p === params.period ? "true" : undefined} scroll={false} prefetch={false}>
                {p}
              </Link>
            ))}
          </nav>
        </div>
        {error && (
          <p className="notice notice-error" role="alert" data-testid="param-error">
            The period in this link cannot be used, so the last 30 days are shown. {error}
          </p>
        )}
        <Widget what="the key metrics" frame={kpiFrame} loading={<KpiSkeleton />}>
          <Kpis params={params} periodLabel={periodLabel} />
        </Widget>
        <div className="grid grid-2">
          <Widget what="traffic by source" frame={trafficFrame} loading={<Skeleton height={300} />}>
            <TrafficCard params={params} periodLabel={periodLabel} />
          </Widget>
          <ScoreCard />
        </div>
        <Widget what="the funnel" frame={funnelFrame} loading={<Skeleton height={300} />}>
          <FunnelCard params={params} periodLabel={periodLabel} />
        </Widget>
      </section>
    </div>
  );
}

/** How long each rolling period is, in words ("30 days" is 30×24 hours up to now). */
const PERIOD_SPANS: Record<string, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days", "90d": "90 days" };
const previousOf = (period: string) => `the previous ${PERIOD_SPANS[period] ?? period}`;

/**
 * The workspace holds no visitor at all (not just none in a window): say why every figure is 0 and
 * what to do, once, above the widgets. One counted request (limit=1); nothing while it is unknown.
 */
function EmptyWorkspaceNotice() {
  const query = useQuery(apiQuery(browserApi, "/visitors", { query: { limit: 1 } }));
  if (query.data?.meta.total !== 0) return null;
  return (
    <div className="notice" role="status" data-testid="empty-workspace">
      <p className={styles.notice}>
        <strong>This workspace has no visitors yet.</strong> Workspace Analytics has no visitor of any date for the workspace this key belongs to, so every
        figure below is 0. Visitors appear once the workspace&apos;s site sends its traffic; if you expected data here, sign in with a key of the workspace
        you meant (<Link href="/settings">Settings</Link> shows which key is in use).
      </p>
    </div>
  );
}

function windowOf(overview: Pick<Overview, "from" | "to">): { from: string; to: string } | null {
  const from = overview.from;
  const to = overview.to;
  return typeof from === "string" && typeof to === "string" ? { from, to } : null;
}

function kpiFrame(body: ReactNode, actions?: ReactNode, periodLabel?: string) {
  return (
    <section aria-labelledby="kpi-heading" data-testid="kpis">
      <div className="card-header">
        <h3 id="kpi-heading">Key metrics{periodLabel ? `, ${periodLabel.toLowerCase()} (rolling)` : ""}</h3>
        {actions && <div className="card-actions">{actions}</div>}
      </div>
      {body}
    </section>
  );
}

/** The window before a rolling period of the same length, as the visitor list's instants (`to` inclusive). */
function previousWindow(w: { from: string; to: string } | null): { from: string; to: string } | null {
  if (!w) return null;
  const from = Date.parse(w.from);
  const to = Date.parse(w.to);
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return null;
  return { from: new Date(from - (to - from)).toISOString(), to: new Date(from - 1).toISOString() };
}

/**
 * AI visitors of the window before the period: the Data API gives the AI traffic no change, so it is
 * counted from the visitor list (one `limit=1` count per AI platform, the same window rule as the
 * overview's own previous period). Undefined until every count is in: never a partial sum.
 */
function useAiPrevious(window: { from: string; to: string } | null): { total: number | undefined; pending: boolean } {
  const before = previousWindow(window);
  const counts = useQueries({
    queries: AI_SOURCES.map((source) => ({
      ...apiQuery(browserApi, "/visitors", { query: { source, from: before?.from, to: before?.to, limit: 1 } }),
      enabled: before !== null,
    })),
  });
  const totals = counts.map((c) => c.data?.meta.total);
  const done = totals.every((t): t is number => typeof t === "number");
  return { total: done ? totals.reduce((a, b) => a + b, 0) : undefined, pending: before !== null && counts.some((c) => c.isPending && !c.isError) };
}

function Kpis({ params, periodLabel }: { params: PeriodParams; periodLabel: string }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/overview", { query: params }));
  const range = query.data ? windowOf(query.data) : null;
  const ai = useAiPrevious(range);
  const rollingPrevious = previousOf(params.period);
  const actions = query.data && (
    <>
      {range && (
        <Link className="button button-secondary button-small" href={visitorsHref(range)} data-testid="view-visitors">
          View these visitors
        </Link>
      )}
      <CsvDownloadButton
        filename={`overview_${params.period}`}
        columns={OVERVIEW_COLUMNS}
        rows={[
          { metric: "visitors", total: query.data.visitors?.total, change: query.data.visitors?.change },
          { metric: "pageviews", total: query.data.pageviews?.total, change: query.data.pageviews?.change },
          { metric: "conversions", total: query.data.conversions?.total, change: query.data.conversions?.change, rate: query.data.conversions?.rate },
          { metric: "ai_traffic", total: query.data.ai_traffic?.total, rate: query.data.ai_traffic?.percentage },
        ]}
      />
    </>
  );
  return kpiFrame(
    <QueryView query={query}>
      {(o) => (
        <div className={`grid grid-kpis ${query.isPlaceholderData ? "is-pending" : ""}`}>
          <Kpi
            label="Visitors"
            testId="kpi-visitors"
            value={o.visitors?.total}
            href={range ? visitorsHref(range) : undefined}
            foot={<ChangeBadge change={o.visitors?.change} unit="percent" window={rollingPrevious} />}
          />
          <Kpi label="Pageviews" testId="kpi-pageviews" value={o.pageviews?.total} foot={<ChangeBadge change={o.pageviews?.change} unit="percent" window={rollingPrevious} />} />
          <Kpi
            label="Conversions"
            testId="kpi-conversions"
            value={o.conversions?.total}
            href={range ? visitorsHref(range, { converted: true }) : undefined}
            foot={
              <>
                <ChangeBadge change={o.conversions?.change} unit="percent" window={rollingPrevious} />
                <span data-testid="kpi-conversion-rate">{formatPercent(o.conversions?.rate)} conversion rate</span>
              </>
            }
          />
          <Kpi
            label="AI traffic"
            testId="kpi-ai"
            value={o.ai_traffic?.total}
            foot={
              <>
                {ai.pending ? (
                  <span className="muted" data-testid="kpi-ai-change-pending">
                    Counting AI visitors of {rollingPrevious}…
                  </span>
                ) : (
                  <ChangeBadge current={o.ai_traffic?.total} previous={ai.total} unit="count" window={rollingPrevious} />
                )}
                <span data-testid="kpi-ai-share">{formatPercent(o.ai_traffic?.percentage)} of visitors</span>
              </>
            }
          />
        </div>
      )}
    </QueryView>,
    actions,
    periodLabel,
  );
}

const trafficFrame = cardFrame({
  title: "Traffic by source",
  description: "Rolling period; AI platforms set apart; each source opens its visitors",
  testId: "traffic-card",
});

function TrafficCard({ params, periodLabel }: { params: PeriodParams; periodLabel: string }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/traffic", { query: params }));
  const data = query.data ? toTrafficChartData(query.data.data) : null;
  return trafficFrame(
    <QueryView
      query={query}
      isEmpty={(t) => !t.unreadable && t.data.every((r) => r.visitors === 0)}
      empty={<EmptyState title="No visitors in this period">Traffic appears here once visitors arrive.</EmptyState>}
    >
      {(t) => (
        <>
          {data ? <TrafficFigure data={data} periodLabel={`${periodLabel.toLowerCase()}, rolling`} previousLabel={previousOf(params.period)} window={windowOf(t)} /> : null}
          <UnreadableNotice unreadable={t.unreadable} noun={["source row", "source rows"]} />
        </>
      )}
    </QueryView>,
    data && data.bars.length > 0 ? <CsvDownloadButton filename={`traffic_${params.period}`} columns={TRAFFIC_COLUMNS} rows={data.bars} /> : undefined,
  );
}

const funnelFrame = cardFrame({
  title: "Conversion funnel",
  description: "Rolling period: each stage's count and its conversion from the previous stage; each stage opens its visitors",
  testId: "funnel-card",
});

function FunnelCard({ params, periodLabel }: { params: PeriodParams; periodLabel: string }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/funnel", { query: params }));
  const bars = query.data ? toFunnelChartData(query.data.data) : [];
  return funnelFrame(
    <QueryView
      query={query}
      isEmpty={(f) => !f.unreadable && f.data.every((s) => s.count === 0)}
      empty={<EmptyState title="No funnel data in this period" />}
    >
      {(f) => (
        <>
          <FunnelFigure bars={bars} periodLabel={`${periodLabel.toLowerCase()}, rolling`} window={windowOf(f)} />
          <UnreadableNotice unreadable={f.unreadable} noun={["stage", "stages"]} />
        </>
      )}
    </QueryView>,
    bars.length > 0 ? <CsvDownloadButton filename={`funnel_${params.period}`} columns={FUNNEL_COLUMNS} rows={bars} /> : undefined,
  );
}

function ScoreCard() {
  return (
    <Card
      title="AI Positioning Score"
      description="How AI platforms position the brand (0–100)"
      testId="score-card"
      actions={
        <Link className="button button-secondary button-small" href="/intelligence">
          Details
        </Link>
      }
    >
      <div className="stack">
        <Widget what="the score" loading={<SkeletonLines lines={2} height={28} />}>
          <ScoreValue />
        </Widget>
        <div>
          <h3 className="kpi-label" style={{ marginBottom: 8 }}>
            Top of the ranking
          </h3>
          <Widget what="the ranking" loading={<SkeletonLines lines={3} />}>
            <RankingTop />
          </Widget>
        </div>
        <Link href="/intelligence" className="small">
          See the full ranking and score breakdown →
        </Link>
      </div>
    </Card>
  );
}

function ScoreValue() {
  const score = useWidgetQuery(apiQuery(browserApi, "/intelligence/score", {}));
  return (
    <QueryView query={score}>
      {(s) => <ScoreSummary score={s} />}
    </QueryView>
  );
}

function RankingTop() {
  const ranking = useWidgetQuery(apiQuery(browserApi, "/intelligence/ranking", {}));
  return (
    <QueryView
      query={ranking}
      isEmpty={(r) => r.data.length === 0 && !r.unreadable}
      empty={<EmptyState title="No competitors tracked yet" />}
    >
      {(r) => (
        <>
          <TopRanking ranking={r} />
          <UnreadableNotice unreadable={r.unreadable} noun={["ranking row", "ranking rows"]} />
        </>
      )}
    </QueryView>
  );
}

function TopRanking({ ranking }: { ranking: Ranking }) {
  const top = sortByRank(ranking.data).slice(0, 3);
  const own = ranking.data.find((r) => r.is_workspace);
  return (
    <>
      <ol className="rank-list" data-testid="top-ranking">
        {top.map((r, i) => (
          <li key={`${i}-${r.name}`} className={r.is_workspace ? "is-workspace" : undefined}>
            <span className="rank-number">#{r.rank ?? MISSING}</span>
            <span>
              {r.name}
              {r.is_workspace && <span className="visually-hidden"> (your workspace)</span>}
            </span>
            <span className="nowrap">{formatNumber(r.score)}</span>
          </li>
        ))}
      </ol>
      {own && !top.includes(own) && (
        <p className="small muted" style={{ marginTop: 8 }}>
          Your workspace: #{own.rank ?? MISSING} ({own.name}, {formatNumber(own.score)})
        </p>
      )}
    </>
  );
}
