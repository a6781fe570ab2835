"use client";
// What moved alongside the AI Positioning Score's change, over the score's own window (the 30
// calendar days ending today, components/intelligence/score-change-data.ts): the four
// components and the ranking's moves from the history the dashboard kept (value now, change, and the
// value it came from; rank then and now), worked out as the history legend works out its own, so
// with the header's last 30 days every figure here is the legend's; and each AI platform's mentions
// and positive share over those days against the 30 before. Without kept history the components
// show their values and say their change was not kept for those days, and the ranking shows the
// upstream's own change, named. Labelled as movement beside the score, not as its cause: none of
// these is shown to explain it.
import type { ReactNode } from "react";
import { keptFromWords, windowWords } from "@/components/charts/history-chart-data";
import {
  answersWindow,
  componentMoves,
  keptChange,
  keptRankMoves,
  largestMoves,
  UPSTREAM_RANKING_CHANGE,
  type ComponentMove,
  type RankMove,
} from "@/components/intelligence/score-change-data";
import { rankingHistoryQuery, scoreHistoryQuery, useScoreWindow } from "@/components/intelligence/score-change";
import { EmptyState, LoadingState, QueryView, SkeletonLines } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { ChangeBadge } from "@/components/ui/change-badge";
import { LABELS } from "@/lib/data-api/constants";
import type { Ranking, Score } from "@/lib/data-api/schemas";
import { formatDateRange, formatNumber, formatZone, MISSING, sortPlatforms } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import { positiveShare, previousWindowLabel, rankingMoves, sentimentShareTest } from "./platforms-data";
import styles from "./platforms.module.css";
import { Counting } from "./range-notes";
import { judge } from "@/lib/stats/significance";

const MOVERS = 5;

// The same options (and so the same cache entries) as the page's own score and ranking widgets.
const scoreQuery = apiQuery(browserApi, "/intelligence/score", {});
const rankingQuery = apiQuery(browserApi, "/intelligence/ranking", {});

/** Sub-lists share one heading style; each loads and fails on its own. */
function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="stack" style={{ gap: 8 }} aria-label={title}>
      <h3 className="kpi-label">{title}</h3>
      {children}
    </section>
  );
}

export function ScoreMovement() {
  return (
    <div className="stack" data-testid="score-movement">
      <p className="small muted">These moved alongside the score&apos;s change, over the same window; they are shown beside it, not as its cause.</p>
      <div className={styles.movement}>
        <Part title="Score components">
          <Widget what="the score components" loading={<SkeletonLines lines={4} />}>
            <ComponentValues />
          </Widget>
        </Part>
        <Part title="Ranking moves">
          <Widget what="the ranking moves" loading={<SkeletonLines lines={5} />}>
            <RankingMoves />
          </Widget>
        </Part>
        <Part title="AI platforms: mentions and sentiment">
          <Widget what="the platforms' movement" loading={<SkeletonLines lines={4} />}>
            <PlatformShifts />
          </Widget>
        </Part>
      </div>
    </div>
  );
}

/** Why a change is not the kept one: nothing earlier kept in the window, or the history could not be read. */
type Missing = "not-kept" | "unavailable";

function ComponentValues() {
  const score = useWidgetQuery(scoreQuery);
  return (
    <QueryView query={score} isEmpty={(s) => !s.breakdown} empty={<EmptyState title="No breakdown available" />}>
      {(s) => <KeptComponentMoves score={s} />}
    </QueryView>
  );
}

function KeptComponentMoves({ score }: { score: Score }) {
  const window = useScoreWindow();
  const history = useWidgetQuery(scoreHistoryQuery(window));
  const answer = answersWindow(history.data, window) ? history.data : undefined;
  if (!answer && !history.isError) {
    return (
      <LoadingState label="the components' change">
        <SkeletonLines lines={4} />
      </LoadingState>
    );
  }
  const kept = answer ? keptChange(answer) : null;
  return (
    <ComponentMoves
      moves={componentMoves(score, kept)}
      window={window}
      firstDay={kept?.firstDay ?? null}
      missing={kept ? null : answer ? "not-kept" : "unavailable"}
    />
  );
}

/**
 * The components over the score's window: value now, change and the value it came from when kept;
 * else the values now, and why their change is not shown, in plain words.
 */
export function ComponentMoves({
  moves,
  window,
  firstDay,
  missing,
}: {
  moves: ComponentMove[];
  window: DateRange;
  firstDay: string | null;
  missing: Missing | null;
}) {
  const words = windowWords(window);
  return (
    <>
      <ul className={styles.moves} data-testid="movement-components">
        {moves.map((m) => (
          <li key={m.key} data-testid="component-move" data-component={m.key}>
            <span>{m.label}</span>
            <span className="nowrap" style={{ display: "inline-flex", flexWrap: "wrap", gap: 6, alignItems: "center" }}>
              <span>
                <strong>{formatNumber(m.now)}</strong> / 100
              </span>
              {m.change !== null && (
                <>
                  <ChangeBadge change={m.change} current={m.now} unit="score" compact />
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      <p className="small muted" data-testid="movement-components-note">
        {missing === null
          ? `Change over ${words}${keptFromWords(window, firstDay)}, from the first kept day to the latest.`
          : missing === "not-kept"
            ? `Values now. Their change is not kept for ${words}: the dashboard kept no earlier score in those days.`
            : `Values now. Their change over ${words} could not be read from the kept history.`}
      </p>
    </>
  );
}

function RankingMoves() {
  const ranking = useWidgetQuery(rankingQuery);
  return (
    <QueryView query={ranking} isEmpty={(r) => r.data.length === 0} empty={<EmptyState title="No competitors tracked yet" />}>
      {(r) => <KeptRankingMoves ranking={r} />}
    </QueryView>
  );
}

function KeptRankingMoves({ ranking }: { ranking: Ranking }) {
  // The score's window (the ranking is computed with the score).
  const window = useScoreWindow();
  const history = useWidgetQuery(rankingHistoryQuery(window));
  const answer = answersWindow(history.data, window) ? history.data : undefined;
  if (!answer && !history.isError) {
    return (
      <LoadingState label="the ranking's moves">
        <SkeletonLines lines={5} />
      </LoadingState>
    );
  }
  const kept = answer ? keptRankMoves(answer) : null;
  if (kept) return <RankMoves moves={kept.moves} window={window} firstDay={kept.firstDay} missing={null} />;
  return <RankMoves moves={upstreamRankMoves(ranking)} window={window} firstDay={null} missing={answer ? "not-kept" : "unavailable"} />;
}

/** The upstream's own moves (each row's score and its change): only when the kept history gives none. */
function upstreamRankMoves(ranking: Ranking): RankMove[] {
  return rankingMoves(ranking.data).map((m) => ({
    name: m.name,
    isWorkspace: m.is_workspace,
    rank: m.rank ?? null,
    previousRank: m.previousRank,
    score: m.score ?? null,
    previousScore: m.score !== undefined && m.change !== undefined ? m.score - m.change : null,
    change: m.change ?? null,
  }));
}

/**
 * The largest ranking moves and ours: rank now (and then, when it changed), score change and the
 * score it came from. From the kept history over the score's window, or the upstream's own change,
 * named, when `missing` says why the kept one is not there.
 */
export function RankMoves({ moves, window, firstDay, missing }: { moves: RankMove[]; window: DateRange; firstDay: string | null; missing: Missing | null }) {
  const words = windowWords(window);
  return (
    <>
      <ul className={styles.moves} data-testid="movement-ranking">
        {largestMoves(moves, MOVERS).map((m, i) => (
          <li key={`${i}-${m.name}`} data-testid="ranking-move">
            <span>
              #{m.rank ?? MISSING} {m.name}
              {m.isWorkspace && (
                <span className="badge badge-accent" style={{ marginLeft: 6 }}>
                  You
                </span>
              )}
              {m.previousRank !== null && m.rank !== null && m.previousRank !== m.rank && <span className="small muted"> (was #{m.previousRank})</span>}
              {m.previousRank === null && missing === null && <span className="small muted"> (new in the ranking)</span>}
            </span>
            <span className="nowrap" style={{ display: "inline-flex", gap: 6, alignItems: "center" }}>
              <ChangeBadge change={m.change} current={m.score} unit="score" compact />
            </span>
          </li>
        ))}
      </ul>
      <p className="small muted" data-testid="movement-ranking-note">
        {missing === null
          ? `Score change over ${words}${keptFromWords(window, firstDay)}; “was” is the rank on the first kept day.`
          : `${UPSTREAM_RANKING_CHANGE} per competitor (${missing === "not-kept" ? `no earlier ranking kept for ${words}` : "the kept history could not be read"}); “was” is the rank by the scores before it.`}
      </p>
    </>
  );
}

function PlatformShifts() {
  const window = useScoreWindow();
  const platforms = useWidgetQuery(apiQuery(browserApi, "/insights/platforms", { query: rangeParams(window) }));
  return (
    <QueryView query={platforms} loading={<Counting range={window} what="mentions" lines={4} />}>
      {(p) => (
        <>
          <ul className={styles.moves} data-testid="movement-platforms">
            {sortPlatforms(p.data, (r) => r.platform).map((row) => (
              <li key={row.platform} data-testid="platform-move" data-platform={row.platform}>
                <span>{LABELS[row.platform] ?? row.platform}</span>
                <span className="nowrap" style={{ display: "inline-flex", flexWrap: "wrap", gap: 6, alignItems: "center" }}>
                  <span data-testid="platform-move-mentions">{formatNumber(row.mentions)}</span> mentions
                  <ChangeBadge
                    current={row.mentions}
                    previous={row.previous.mentions}
                    significance={judge(row, "mentions")}
                    unit="count"
                    window={previousWindowLabel(p)}
                    compact
                  />
                </span>
                <span className="nowrap small" style={{ display: "inline-flex", gap: 6, alignItems: "center" }}>
                  positive share
                  <ChangeBadge
                    current={positiveShare(row.sentiment)}
                    previous={positiveShare(row.previous.sentiment)}
                    significance={sentimentShareTest(row.sentiment, row.previous.sentiment, "positive")}
                    unit="rate"
                    window={previousWindowLabel(p)}
                    compact
                  />
                </span>
              </li>
            ))}
          </ul>
          <p className="small muted" data-testid="movement-window">
            {formatDateRange(p)}, days counted in {formatZone(p.tz)} (the score&apos;s 30 days), against {previousWindowLabel(p)}.
          </p>
        </>
      )}
    </QueryView>
  );
}
