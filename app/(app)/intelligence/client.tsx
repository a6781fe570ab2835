"use client";
// The AI Positioning Score (0–100) with its trend and four components, and the full competitor
// ranking with the workspace highlighted. Score and ranking load and fail independently.
import { useQuery } from "@tanstack/react-query";
import { BreakdownFigure } from "@/components/charts/chart-figures";
import { toBreakdownData } from "@/components/charts/breakdown-chart-data";
import { CsvDownloadButton } from "@/components/export/csv-download-button";
import { RANKING_CSV_COLUMNS } from "@/components/export/table-columns";
import { EmptyState, QueryView, Skeleton, SkeletonLines } from "@/components/states/states";
import { Card } from "@/components/ui/card";
import { ChangeBadge } from "@/components/ui/change-badge";
import { DateTime } from "@/components/ui/date-time";
import { ScoreSummary } from "@/components/ui/score-summary";
import type { Ranking } from "@/lib/data-api/schemas";
import { formatNumber } from "@/lib/format/format";
import { browserApi } from "@/lib/queries/browser-api";
import { rankingQuery, scoreQuery } from "@/lib/queries/intelligence";

export function IntelligenceClient() {
  const score = useQuery(scoreQuery(browserApi));
  const ranking = useQuery(rankingQuery(browserApi));
  return (
    <div className="stack">
      <div className="page-header">
        <div>
          <h1>Intelligence</h1>
          <p>The AI Positioning Score: how AI platforms position the brand, and where it ranks against competitors.</p>
        </div>
      </div>
      <div className="grid grid-halves">
        <Card
          title="AI Positioning Score"
          description={score.data?.updated_at ? <>Updated <DateTime iso={score.data.updated_at} /></> : "Scale 0–100"}
          testId="score-card"
        >
          <QueryView query={score} what="the score" loading={<SkeletonLines lines={3} height={30} />}>
            {(s) => (
              <div className="stack">
                <ScoreSummary score={s} size="large" />
                <p className="small muted">
                  Range 0 (never surfaced) to 100 (consistently recommended first). Trend: {s.trend?.direction ?? "unknown"}
                  {s.trend?.change !== undefined && `, ${s.trend.change > 0 ? "+" : ""}${s.trend.change} points`}.
                </p>
              </div>
            )}
          </QueryView>
        </Card>
        <Card title="Score components" description="Each component on the same 0–100 scale" testId="breakdown-card">
          <QueryView query={score} what="the score components" loading={<Skeleton height={220} />} isEmpty={(s) => !s.breakdown} empty={<EmptyState title="No breakdown available" />}>
            {(s) => <BreakdownFigure bars={toBreakdownData(s)} />}
          </QueryView>
        </Card>
      </div>
      <Card
        title="Competitor ranking"
        description={ranking.data?.updated_at ? <>Updated <DateTime iso={ranking.data.updated_at} /></> : "Your workspace against tracked competitors"}
        testId="ranking-card"
        actions={
          ranking.data && ranking.data.data.length > 0 ? (
            <CsvDownloadButton
              filename="ranking"
              columns={RANKING_CSV_COLUMNS}
              rows={ranking.data.data}
            />
          ) : undefined
        }
      >
        <QueryView
          query={ranking}
          what="the ranking"
          loading={<SkeletonLines lines={6} height={24} />}
          isEmpty={(r) => r.data.length === 0}
          empty={<EmptyState title="No competitors tracked yet" />}
        >
          {(r) => <RankingTable ranking={r} />}
        </QueryView>
      </Card>
    </div>
  );
}

function RankingTable({ ranking }: { ranking: Ranking }) {
  const rows = [...ranking.data].sort((a, b) => a.rank - b.rank);
  const max = Math.max(100, ...rows.map((r) => r.score));
  return (
    <div className="table-wrap" role="region" aria-label="Ranking (scrolls sideways)" tabIndex={0}>
      <table className="table" data-testid="ranking-table">
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Brand</th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col" style={{ width: "40%" }}>
              <span className="visually-hidden">Score bar</span>
            </th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.rank}-${r.name}`} className={r.is_workspace ? "highlight" : undefined} data-testid="ranking-row" aria-current={r.is_workspace ? "true" : undefined}>
              <td className="rank-number">#{r.rank}</td>
              <td>
                {r.name}
                {r.is_workspace && <span className="badge badge-accent" style={{ marginLeft: 8 }}>You</span>}
              </td>
              <td className="num">{formatNumber(r.score)}</td>
              <td aria-hidden="true">
                <span className="rank-bar">
                  <span className={r.is_workspace ? "rank-bar-fill is-workspace" : "rank-bar-fill"} style={{ width: `${(r.score / max) * 100}%` }} />
                </span>
              </td>
              <td>{r.change === undefined ? <span className="muted">—</span> : <ChangeBadge value={r.change} unit="" suffix="points" />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
