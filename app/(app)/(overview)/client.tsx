"use client";
// The overview, in one window: the header's date range (range-insights: KPIs against the previous
// period, the trend, conversion by source). What the Data API gives only for its own periods
// (pageviews, the funnel) comes from the period that matches the range, or the nearest, said in one
// sentence, and each of those figures is named with its window ("Pageviews, last 30 days up to
// now"), as prominent as the names themselves (the card's title, the funnel's heading), so no figure
// shows twice under one name with two values. The score and the top of the ranking are the Data
// API's current ones; the score's change is the one /intelligence shows, over the score's window
// from the kept history (components/intelligence/score-change.tsx). Each widget has its own query and so its own loading,
// empty and error state, and streams in on its own (components/states/widget.tsx).
import { useQuery } from "@tanstack/react-query";
import { AppLink as Link, useSharedView } from "@/components/shares/shared-view";
import { useId, type ReactNode } from "react";
import { toFunnelChartData } from "@/components/charts/funnel-chart-data";
import { FunnelTable } from "@/components/charts/funnel-table";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { FUNNEL_COLUMNS } from "@/lib/columns/analytics";
import { EmptyState, QueryView, Skeleton, SkeletonLines, UnreadableNotice } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Card } from "@/components/ui/card";
import { ChangeBadge } from "@/components/ui/change-badge";
import { sortByRank } from "@/components/ui/ranking-data";
import { ScoreSummary } from "@/components/ui/score-summary";
import { ScoreChange } from "@/components/intelligence/score-change";
import type { Period } from "@/lib/data-api/constants";
import type { Overview, Ranking } from "@/lib/data-api/schemas";
import { formatNumber, MISSING } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { periodForRange, periodNote, periodPreviousLabel, periodWindowLabel } from "@/lib/range/api-period";
import { useDateRange } from "@/lib/range/use-date-range";
import { Kpi } from "./kpi";
import styles from "./overview.module.css";
import { RangeInsights } from "./range-insights";

export function OverviewClient({ periodError }: { periodError?: string }) {
  const { range, nowMs } = useDateRange();
  const { period } = periodForRange(range, nowMs);
  const funnelHeadingId = useId();
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Overview</h1>
          <p>Traffic, conversions and how AI platforms see the brand, over the date range in the header.</p>
        </div>
      </div>
      <EmptyWorkspaceNotice />
      {periodError && (
        <p className="notice notice-error" role="alert" data-testid="param-error">
          {periodError}. Showing the date range in the header.
        </p>
      )}
      <RangeInsights />
      <div className="grid grid-2">
        <Card title={`Pageviews and funnel, ${periodWindowLabel(period)}`} description={periodNote(range, nowMs)} testId="period-card">
          <div className="stack">
            <Widget what="the pageviews" loading={<SkeletonLines lines={3} height={22} />}>
              <Pageviews period={period} />
            </Widget>
            <section aria-labelledby={funnelHeadingId}>
              <Widget what="the funnel" frame={(body) => funnelFrame(body, funnelHeadingId, period)} loading={<Skeleton height={220} />}>
                <Funnel period={period} headingId={funnelHeadingId} />
              </Widget>
            </section>
          </div>
        </Card>
        <ScoreCard />
      </div>
    </div>
  );
}

/**
 * The workspace holds no visitor at all (not just none in a window): say why every figure is 0 and
 * what to do, once, above the widgets. One counted request (limit=1); nothing while it is unknown.
 */
function EmptyWorkspaceNotice() {
  // A shared page reads no visitor, not even their count: the notice is a member's.
  const shared = useSharedView() !== null;
  const query = useQuery({ ...apiQuery(browserApi, "/visitors", { query: { limit: 1 } }), enabled: !shared });
  if (query.data?.meta.total !== 0) return null;
  return (
    <div className="notice" role="status" data-testid="empty-workspace">
      <p className={styles.notice}>
        <strong>This workspace has no visitors yet.</strong> Workspace Analytics has no visitor of any date for the workspace this key belongs to, so every
        figure below is 0. Visitors appear once the workspace&apos;s site sends its traffic; if you expected data here, sign in with a key of the workspace you
        meant (<Link href="/settings">Settings</Link> shows which key is in use).
      </p>
    </div>
  );
}

/** The period's instants as the API states them, for the visitor list's links; null when it does not. */
function windowOf(answer: Pick<Overview, "from" | "to">): { from: string; to: string } | null {
  return typeof answer.from === "string" && typeof answer.to === "string" ? { from: answer.from, to: answer.to } : null;
}

/** Pageviews of the period, with the Data API's own change against the period before. No list: the API lists visitors, not pageviews. */
function Pageviews({ period }: { period: Period }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/overview", { query: { period } }));
  const noteId = useId();
  return (
    <QueryView query={query}>
      {(o) => (
        <Kpi
          bare
          label={`Pageviews, ${periodWindowLabel(period)}`}
          testId="kpi-pageviews"
          value={o.pageviews?.total}
          describedBy={noteId}
          foot={
            <>
              <ChangeBadge change={o.pageviews?.change} current={o.pageviews?.total} unit="count" window={periodPreviousLabel(period)} />
              <span id={noteId}>No list to open: Workspace Analytics lists visitors, not pageviews.</span>
            </>
          }
        />
      )}
    </QueryView>
  );
}

/**
 * The funnel's heading, naming its window as its title does (its stages are named like the range's
 * KPIs above, with other figures), with its download once the stages are in (rendered with them,
 * so server and browser agree).
 */
function funnelFrame(body: ReactNode, headingId: string, period: Period, actions?: ReactNode) {
  return (
    <>
      <div className={styles.funnelHead}>
        <h3 id={headingId}>Conversion funnel, {periodWindowLabel(period)}</h3>
        {actions}
      </div>
      {body}
    </>
  );
}

function Funnel({ period, headingId }: { period: Period; headingId: string }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/analytics/funnel", { query: { period } }));
  const bars = query.data ? toFunnelChartData(query.data.data) : [];
  return funnelFrame(
    <QueryView
      query={query}
      isEmpty={(f) => !f.unreadable && f.data.every((s) => s.count === 0)}
      empty={<EmptyState title={`No visitors in the ${periodWindowLabel(period)}`} />}
    >
      {(f) => (
        <>
          <FunnelTable bars={bars} windowLabel={periodWindowLabel(period)} window={windowOf(f)} />
          <UnreadableNotice unreadable={f.unreadable} noun={["stage", "stages"]} />
        </>
      )}
    </QueryView>,
    headingId,
    period,
    bars.length > 0 ? <CsvDownloadButton filename={`funnel_${period}`} columns={FUNNEL_COLUMNS} rows={bars} /> : undefined,
  );
}

function ScoreCard() {
  return (
    <Card
      title="AI Positioning Score"
      description="How AI platforms position the brand now (0–100)"
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
  return <QueryView query={score}>{(s) => <ScoreSummary score={s} change={<ScoreChange score={s} />} />}</QueryView>;
}

function RankingTop() {
  const ranking = useWidgetQuery(apiQuery(browserApi, "/intelligence/ranking", {}));
  return (
    <QueryView query={ranking} isEmpty={(r) => r.data.length === 0 && !r.unreadable} empty={<EmptyState title="No competitors tracked yet" />}>
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
