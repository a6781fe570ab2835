"use client";
// The AI Positioning Score (0–100) with its trend and four components, its history over the header's
// range (the score and components over time, the rank of us and every competitor over time and who
// passed whom, where the history begins), what moved alongside its change (components, ranking moves,
// AI platforms' mentions and sentiment over the score's own 30-day window), and the full competitor
// ranking with the workspace highlighted. The current score and ranking are the upstream's latest,
// whatever the range; the page says so. The score's change is the one over its window from the kept
// history (components/intelligence), the same figure the history legend shows for those days. Each
// part loads, streams and fails independently.
import { useMemo, type ReactNode } from "react";
import { isWorkspaceRow, RANKING_TABLE_COLUMNS, rankingRowKey } from "@/components/data-table/columns/ranking";
import { DataTable } from "@/components/data-table/data-table";
import { BreakdownFigure } from "@/components/charts/chart-figures";
import { HistoryBegins, RankHistoryFigure, ScoreHistoryFigure } from "@/components/charts/history-figures";
import { toBreakdownData } from "@/components/charts/breakdown-chart-data";
import { ScoreChange } from "@/components/intelligence/score-change";
import { UPSTREAM_RANKING_CHANGE } from "@/components/intelligence/score-change-data";
import { ScoreMovement } from "@/components/platforms/score-movement";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { RANKING_COLUMNS } from "@/lib/columns/ranking";
import { RANK_HISTORY_COLUMNS, SCORE_HISTORY_COLUMNS } from "@/lib/columns/history";
import { EmptyState, noRows, PendingAnswer, QueryView, Skeleton, SkeletonLines } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Card, type CardHead } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { sortByRank } from "@/components/ui/ranking-data";
import { ScoreSummary } from "@/components/ui/score-summary";
import type { Ranking } from "@/lib/data-api/schemas";
import { formatDateRange, formatZone } from "@/lib/format/format";
import type { RankingHistory, ScoreHistory } from "@/lib/history/routes";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import { useDateRange } from "@/lib/range/use-date-range";

const scoreQuery = apiQuery(browserApi, "/intelligence/score", {});
const rankingQuery = apiQuery(browserApi, "/intelligence/ranking", {});

export function IntelligenceClient() {
  const { range } = useDateRange();
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Intelligence</h1>
          <p>
            The AI Positioning Score: how AI platforms position the brand, and where it ranks against competitors. Over time: {formatDateRange(range)} (
            {formatZone(range.tz)}), from the snapshots this dashboard kept. The score and the ranking are Workspace Analytics&apos; latest, whatever the range;
            the score&apos;s change, and what moved alongside it, are over the score&apos;s own 30 days.
          </p>
        </div>
      </div>
      <div className="grid grid-halves">
        <Widget what="the score" frame={scoreFrame} loading={<SkeletonLines lines={3} height={30} />}>
          <ScoreCard />
        </Widget>
        <Widget what="the score components" card={BREAKDOWN_CARD} loading={<Skeleton height={220} />}>
          <BreakdownCard />
        </Widget>
      </div>
      <Widget what="the score's history" frame={scoreHistoryFrame} loading={<Skeleton height={300} />}>
        <ScoreHistoryCard range={range} />
      </Widget>
      <Widget what="the ranking's history" frame={rankHistoryFrame} loading={<Skeleton height={300} />}>
        <RankHistoryCard range={range} />
      </Widget>
      <Card
        title="What moved alongside the score"
        description="Over the score's window, the 30 days ending on the score's day: components and ranking from the kept history, AI platforms against the 30 days before"
        testId="movement-card"
      >
        <ScoreMovement />
      </Card>
      <Widget what="the ranking" frame={rankingFrame} loading={<SkeletonLines lines={6} height={24} />}>
        <RankingCard />
      </Widget>
    </div>
  );
}

const historyName = (what: string, h: { from: string; to: string }) => `${what}_${h.from}_to_${h.to}`;

function scoreHistoryFrame(body: ReactNode, history?: ScoreHistory) {
  const rows = history?.data.map((s) => ({ at: s.at, score: s.score, ...s.breakdown, direction: s.direction, change: s.change })) ?? [];
  return (
    <Card
      title="Score over time"
      description={
        history
          ? `The score and its components per day, ${formatDateRange(history)} (${formatZone(history.tz)})`
          : "The score and its components per day of the range"
      }
      testId="score-history-card"
      actions={
        history && rows.length > 0 ? (
          <CsvDownloadButton filename={historyName("score_history", history)} columns={SCORE_HISTORY_COLUMNS} rows={rows} />
        ) : undefined
      }
    >
      {body}
    </Card>
  );
}

function ScoreHistoryCard({ range }: { range: DateRange }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/history/score", { query: rangeParams(range) }));
  return scoreHistoryFrame(
    <QueryView query={query}>
      {(h) => (
        <PendingAnswer pending={query.isPlaceholderData} className="stack">
          <HistoryBegins history={h} />
          <ScoreHistoryFigure history={h} />
        </PendingAnswer>
      )}
    </QueryView>,
    query.data,
  );
}

function rankHistoryFrame(body: ReactNode, history?: RankingHistory) {
  const rows = history?.data.flatMap((r) => r.entries.map((e) => ({ at: r.at, ...e }))) ?? [];
  return (
    <Card
      title="Rank over time"
      description={
        history
          ? `Our rank and every competitor's per day, ${formatDateRange(history)} (${formatZone(history.tz)})`
          : "Our rank and every competitor's per day of the range"
      }
      testId="rank-history-card"
      actions={
        history && rows.length > 0 ? (
          <CsvDownloadButton filename={historyName("rank_history", history)} columns={RANK_HISTORY_COLUMNS} rows={rows} />
        ) : undefined
      }
    >
      {body}
    </Card>
  );
}

function RankHistoryCard({ range }: { range: DateRange }) {
  const query = useWidgetQuery(apiQuery(browserApi, "/history/ranking", { query: rangeParams(range) }));
  return rankHistoryFrame(
    <QueryView query={query}>
      {(h) => (
        <PendingAnswer pending={query.isPlaceholderData}>
          <RankHistoryFigure history={h} />
        </PendingAnswer>
      )}
    </QueryView>,
    query.data,
  );
}

const updatedOr = (updatedAt: string | undefined, otherwise: string) =>
  updatedAt ? (
    <>
      Updated <DateTime iso={updatedAt} />
    </>
  ) : (
    otherwise
  );

function scoreFrame(body: ReactNode, updatedAt?: string) {
  return (
    <Card title="AI Positioning Score" description={updatedOr(updatedAt, "Scale 0–100")} testId="score-card">
      {body}
    </Card>
  );
}

function ScoreCard() {
  const score = useWidgetQuery(scoreQuery);
  return scoreFrame(
    <QueryView query={score}>
      {(s) => (
        <div className="stack">
          <ScoreSummary score={s} size="large" change={<ScoreChange score={s} />} />
          <p className="small muted">Range 0 (never surfaced) to 100 (consistently recommended first).</p>
        </div>
      )}
    </QueryView>,
    score.data?.updated_at,
  );
}

const BREAKDOWN_CARD: CardHead = {
  title: "Score components",
  description: "Each component on the same 0–100 scale",
  testId: "breakdown-card",
};

function BreakdownCard() {
  const score = useWidgetQuery(scoreQuery);
  return (
    <QueryView query={score} isEmpty={(s) => !s.breakdown} empty={<EmptyState title="No breakdown available" />}>
      {(s) => <BreakdownFigure bars={toBreakdownData(s)} />}
    </QueryView>
  );
}

function rankingFrame(body: ReactNode, ranking?: Ranking) {
  return (
    <Card
      title="Competitor ranking"
      description={
        // The table's change is the upstream's, over its own 30 days (ours differs from the score
        // card's by that window): named, so the two read as two windows.
        <>
          {updatedOr(ranking?.updated_at, "Your workspace against tracked competitors")}. Score change: {UPSTREAM_RANKING_CHANGE}.
        </>
      }
      testId="ranking-card"
      actions={ranking && ranking.data.length > 0 ? <CsvDownloadButton filename="ranking" columns={RANKING_COLUMNS} rows={ranking.data} /> : undefined}
    >
      {body}
    </Card>
  );
}

function RankingCard() {
  const ranking = useWidgetQuery(rankingQuery);
  return rankingFrame(
    <QueryView query={ranking} isEmpty={noRows} empty={<EmptyState title="No competitors tracked yet" />}>
      {(r) => <RankingTable ranking={r} />}
    </QueryView>,
    ranking.data,
  );
}

function RankingTable({ ranking }: { ranking: Ranking }) {
  const rows = useMemo(() => sortByRank(ranking.data), [ranking.data]);
  return (
    <DataTable
      rows={rows}
      columns={RANKING_TABLE_COLUMNS}
      caption="Competitor ranking"
      rowKey={rankingRowKey}
      isCurrent={isWorkspaceRow}
      testId="ranking-table"
      rowTestId="ranking-row"
      unreadable={ranking.unreadable}
    />
  );
}
