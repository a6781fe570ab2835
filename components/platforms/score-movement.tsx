"use client";
// What moved alongside the AI Positioning Score's change, over the score's own window: the score
// compares the last 30 days with the 30 before, so this shows the four components (their values:
// the API gives no change per component), the ranking's moves (each competitor's score change and
// the rank it held by last period's scores), and each AI platform's mentions and positive share over
// the 30 calendar days ending on the score's date against the 30 before. Labelled as movement beside
// the score, not as its cause: none of these is shown to explain it.
import { useState, type ReactNode } from "react";
import { COMPONENTS } from "@/components/charts/breakdown-chart-data";
import { EmptyState, QueryView, SkeletonLines } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { ChangeBadge } from "@/components/ui/change-badge";
import { LABELS } from "@/lib/data-api/constants";
import type { Ranking, Score } from "@/lib/data-api/schemas";
import { formatDateRange, formatNumber, formatZone, MISSING, sortPlatforms } from "@/lib/format/format";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { addDays, todayIn } from "@/lib/range/calendar";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import { useDateRange } from "@/lib/range/use-date-range";
import { positiveShare, previousWindowLabel, rankingMoves } from "./platforms-data";
import styles from "./platforms.module.css";
import { Counting } from "./range-notes";

/** The score's window as calendar days: the 30 days ending on the day it was computed (today when it does not say), in `tz`. */
export function scoreWindow(score: Score | undefined, tz: string, nowMs: number): DateRange {
  const at = score?.updated_at ? Date.parse(score.updated_at) : NaN;
  const to = todayIn(tz, Number.isFinite(at) ? at : nowMs);
  return { from: addDays(to, -29), to, tz };
}

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
      <p className="small muted">
        These moved alongside the score&apos;s change, over the same window; they are shown beside it, not as its cause.
      </p>
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

function ComponentValues() {
  const score = useWidgetQuery(scoreQuery);
  return (
    <QueryView query={score} isEmpty={(s) => !s.breakdown} empty={<EmptyState title="No breakdown available" />}>
      {(s) => (
        <>
          <ul className={styles.moves} data-testid="movement-components">
            {COMPONENTS.map((c) => (
              <li key={c.key}>
                <span>{c.label}</span>
                <span className="nowrap">
                  <strong>{formatNumber(s.breakdown?.[c.key])}</strong> / 100
                </span>
              </li>
            ))}
          </ul>
          <p className="small muted">Each component&apos;s current value; how much each one changed is not known.</p>
        </>
      )}
    </QueryView>
  );
}

function RankingMoves() {
  const ranking = useWidgetQuery(rankingQuery);
  return (
    <QueryView query={ranking} isEmpty={(r) => r.data.length === 0} empty={<EmptyState title="No competitors tracked yet" />}>
      {(r) => <MoversList ranking={r} />}
    </QueryView>
  );
}

function MoversList({ ranking }: { ranking: Ranking }) {
  const moves = rankingMoves(ranking.data);
  // The biggest moves first, and the workspace always: its own move is the one the score's change is.
  const movers = moves
    .filter((m) => typeof m.change === "number")
    .sort((a, b) => Math.abs(b.change!) - Math.abs(a.change!))
    .slice(0, MOVERS);
  const own = moves.find((m) => m.is_workspace);
  const shown = own && !movers.includes(own) ? [...movers, own] : movers;
  return (
    <>
      <ul className={styles.moves} data-testid="movement-ranking">
        {shown.map((m, i) => (
          <li key={`${i}-${m.name}`} data-testid="ranking-move">
            <span>
              #{m.rank ?? MISSING} {m.name}
              {m.is_workspace && <span className="badge badge-accent" style={{ marginLeft: 6 }}>You</span>}
              {m.previousRank !== null && m.rank !== undefined && m.previousRank !== m.rank && <span className="small muted"> (was #{m.previousRank})</span>}
            </span>
            <ChangeBadge current={m.score} previous={m.score !== undefined && m.change !== undefined ? m.score - m.change : undefined} unit="points" window="the previous period" compact />
          </li>
        ))}
      </ul>
      <p className="small muted">Score change per competitor; &ldquo;was&rdquo; is the rank by last period&apos;s scores.</p>
    </>
  );
}

function PlatformShifts() {
  const { range } = useDateRange();
  const [nowMs] = useState(() => Date.now());
  const score = useWidgetQuery(scoreQuery);
  const window = scoreWindow(score.data, range.tz, nowMs);
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
                  <ChangeBadge current={row.mentions} previous={row.previous.mentions} unit="count" window={previousWindowLabel(p)} compact />
                </span>
                <span className="nowrap small" style={{ display: "inline-flex", gap: 6, alignItems: "center" }}>
                  positive share
                  <ChangeBadge current={positiveShare(row.sentiment)} previous={positiveShare(row.previous.sentiment)} unit="points" window={previousWindowLabel(p)} compact />
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
