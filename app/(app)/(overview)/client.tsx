"use client";
// The overview: period selector, KPI cards, traffic by source, the funnel, and the score with the top
// of the ranking. Each widget has its own query and so its own loading, empty and error state, and
// streams in on its own (components/states/widget.tsx).
import Link from "next/link";
import { useQueryStates } from "nuqs";
import type { ReactNode } from "react";
import { FunnelFigure, TrafficFigure } from "@/components/charts/chart-figures";
import { toFunnelChartData } from "@/components/charts/funnel-chart-data";
import { toTrafficChartData } from "@/components/charts/traffic-chart-data";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { FUNNEL_COLUMNS, OVERVIEW_COLUMNS, TRAFFIC_COLUMNS } from "@/lib/columns/analytics";
import { EmptyState, QueryView, Skeleton, SkeletonLines, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Card } from "@/components/ui/card";
import { ChangeBadge } from "@/components/ui/change-badge";
import { sortByRank } from "@/components/ui/ranking-data";
import { ScoreSummary } from "@/components/ui/score-summary";
import { PERIODS } from "@/lib/data-api/constants";
import type { PeriodParams } from "@/lib/data-api/params";
import type { Overview, Ranking } from "@/lib/data-api/schemas";
import { formatNumber, formatPercent, MISSING } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { PERIOD_LABELS } from "@/lib/ui/view-filters";
import { overviewSearchParams } from "./search-params";

export function OverviewClient({ error }: { error?: string }) {
  const [params] = useQueryStates(overviewSearchParams);
  const periodLabel = PERIOD_LABELS[params.period] ?? params.period;
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Overview</h1>
          <p>{periodLabel}: traffic, conversions and how AI platforms see the brand.</p>
        </div>
        <nav className="segmented" aria-label="Period">
          {PERIODS.map((p) => (
            <Link key={p} href={`/?period=${p}`} aria-current={p === params.period ? "true" : undefined} scroll={false} prefetch={false}>
              {p}
            </Link>
          ))}
        </nav>
      </div>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="param-error">
          {error}. Showing the last 30 days.
        </p>
      )}
      <Widget what="the key metrics" frame={kpiFrame} loading={<KpiSkeleton />}>
        <Kpis params={params} />
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
    </div>
  );
}

function windowOf(overview: Overview): { from: string; to: string } | null {
  const from = overview.from;
  const to = overview.to;
  return typeof from === "string" && typeof to === "string" ? { from, to } : null;
}

function kpiFrame(body: ReactNode, actions?: ReactNode) {
  return (
    <section aria-labelledby="kpi-heading" data-testid="kpis">
      <div className="card-header">
        <h2 id="kpi-heading">Key metrics</h2>
        {actions && <div className="card-actions">{actions}</div>}
      </div>
      {body}
    </section>
  );
}

function KpiSkeleton() {
  return (
    <div className="grid grid-kpis">
      {[0, 1, 2, 3].map((i) => (
        <div className="card" key={i}>
          <SkeletonLines lines={3} height={20} />
        </div>
      ))}
    </div>
  );
}

function Kpis({ params }: { params: PeriodParams }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/overview", { query: params }));
  const range = query.data ? windowOf(query.data) : null;
  const actions = query.data && (
    <>
      {range && (
        <Link className="button button-secondary button-small" href={`/visitors?${new URLSearchParams(range).toString()}`} data-testid="view-visitors">
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
    <QueryView query={query} what="the key metrics" loading={<KpiSkeleton />}>
      {(o) => (
        <div className={`grid grid-kpis ${query.isPlaceholderData ? "is-pending" : ""}`}>
          <Kpi label="Visitors" testId="kpi-visitors" value={o.visitors?.total} foot={<ChangeBadge value={o.visitors?.change} />} />
          <Kpi label="Pageviews" testId="kpi-pageviews" value={o.pageviews?.total} foot={<ChangeBadge value={o.pageviews?.change} />} />
          <Kpi
            label="Conversions"
            testId="kpi-conversions"
            value={o.conversions?.total}
            foot={
              <>
                <ChangeBadge value={o.conversions?.change} />
                <span data-testid="kpi-conversion-rate">{formatPercent(o.conversions?.rate)} conversion rate</span>
              </>
            }
          />
          <Kpi
            label="AI traffic"
            testId="kpi-ai"
            value={o.ai_traffic?.total}
            foot={<span data-testid="kpi-ai-share">{formatPercent(o.ai_traffic?.percentage)} of visitors</span>}
          />
        </div>
      )}
    </QueryView>,
    actions,
  );
}

function Kpi({ label, value, foot, testId }: { label: string; value: number | undefined; foot: React.ReactNode; testId: string }) {
  return (
    <div className="card" data-testid={testId}>
      <p className="kpi-label">{label}</p>
      <p className="kpi-value" data-testid="kpi-value">
        {formatNumber(value)}
      </p>
      <div className="kpi-foot">{foot}</div>
    </div>
  );
}

function trafficFrame(body: ReactNode, actions?: ReactNode) {
  return (
    <Card title="Traffic by source" description="AI platforms set apart from other sources" testId="traffic-card" actions={actions}>
      {body}
    </Card>
  );
}

function TrafficCard({ params, periodLabel }: { params: PeriodParams; periodLabel: string }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/traffic", { query: params }));
  const data = query.data ? toTrafficChartData(query.data.data) : null;
  return trafficFrame(
    <QueryView
      query={query}
      what="traffic by source"
      loading={<Skeleton height={300} />}
      isEmpty={(t) => !t.unreadable && t.data.every((r) => r.visitors === 0)}
      empty={<EmptyState title="No visitors in this period">Traffic appears here once visitors arrive.</EmptyState>}
    >
      {(t) => (
        <>
          {data ? <TrafficFigure data={data} periodLabel={periodLabel} /> : null}
          <UnreadableNotice unreadable={t.unreadable} noun={["source row", "source rows"]} />
        </>
      )}
    </QueryView>,
    data && data.bars.length > 0 ? <CsvDownloadButton filename={`traffic_${params.period}`} columns={TRAFFIC_COLUMNS} rows={data.bars} /> : undefined,
  );
}

function funnelFrame(body: ReactNode, actions?: ReactNode) {
  return (
    <Card title="Conversion funnel" description="Each stage's count and its conversion from the previous stage" testId="funnel-card" actions={actions}>
      {body}
    </Card>
  );
}

function FunnelCard({ params, periodLabel }: { params: PeriodParams; periodLabel: string }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/funnel", { query: params }));
  const bars = query.data ? toFunnelChartData(query.data.data) : [];
  return funnelFrame(
    <QueryView
      query={query}
      what="the funnel"
      loading={<Skeleton height={300} />}
      isEmpty={(f) => !f.unreadable && f.data.every((s) => s.count === 0)}
      empty={<EmptyState title="No funnel data in this period" />}
    >
      {(f) => (
        <>
          <FunnelFigure bars={bars} periodLabel={periodLabel} />
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
    <QueryView query={score} what="the score" loading={<SkeletonLines lines={2} height={28} />}>
      {(s) => <ScoreSummary score={s} />}
    </QueryView>
  );
}

function RankingTop() {
  const ranking = useWidgetQuery(apiQuery(browserApi, "/intelligence/ranking", {}));
  return (
    <QueryView
      query={ranking}
      what="the ranking"
      loading={<SkeletonLines lines={3} />}
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
