"use client";
// The AI Positioning Score (0–100) with its trend and four components, what moved alongside its
// change (components, ranking moves, AI platforms' mentions and sentiment over the same window), and
// the full competitor ranking with the workspace highlighted. Each part loads, streams and fails
// independently.
import { useMemo, type ReactNode } from "react";
import { isWorkspaceRow, RANKING_TABLE_COLUMNS, rankingRowKey } from "@/components/data-table/columns/ranking";
import { DataTable } from "@/components/data-table/data-table";
import { BreakdownFigure } from "@/components/charts/chart-figures";
import { toBreakdownData } from "@/components/charts/breakdown-chart-data";
import { ScoreMovement } from "@/components/platforms/score-movement";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { RANKING_COLUMNS } from "@/lib/columns/ranking";
import { EmptyState, noRows, QueryView, Skeleton, SkeletonLines } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { Card, type CardHead } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { sortByRank } from "@/components/ui/ranking-data";
import { ScoreSummary } from "@/components/ui/score-summary";
import { UnknownValue } from "@/components/ui/value-badge";
import type { Ranking } from "@/lib/data-api/schemas";
import { formatChange } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";

const scoreQuery = apiQuery(browserApi, "/intelligence/score", {});
const rankingQuery = apiQuery(browserApi, "/intelligence/ranking", {});

export function IntelligenceClient() {
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Intelligence</h1>
          <p>The AI Positioning Score: how AI platforms position the brand, and where it ranks against competitors.</p>
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
      <Card title="What moved alongside the score" description="Components, ranking moves and AI platforms over the score's window: the last 30 days against the 30 before" testId="movement-card">
        <ScoreMovement />
      </Card>
      <Widget what="the ranking" frame={rankingFrame} loading={<SkeletonLines lines={6} height={24} />}>
        <RankingCard />
      </Widget>
    </div>
  );
}

const updatedOr = (updatedAt: string | undefined, otherwise: string) => (updatedAt ? <>Updated <DateTime iso={updatedAt} /></> : otherwise);

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
          <ScoreSummary score={s} size="large" />
          <p className="small muted">
            Range 0 (never surfaced) to 100 (consistently recommended first). Trend: <TrendDirection direction={s.trend?.direction} />
            {s.trend?.change !== undefined && `, ${formatChange(s.trend.change, "points").text}`}.
          </p>
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
      description={updatedOr(ranking?.updated_at, "Your workspace against tracked competitors")}
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
    <QueryView
      query={ranking}
      isEmpty={noRows}
      empty={<EmptyState title="No competitors tracked yet" />}
    >
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

const DIRECTIONS = ["up", "down", "flat"];

/** The trend's direction as sent: the known ones as words, any other value as it is, neutral. */
function TrendDirection({ direction }: { direction: string | undefined }) {
  if (direction === undefined) return <>unknown</>;
  return DIRECTIONS.includes(direction) ? <>{direction}</> : <UnknownValue value={direction} />;
}
