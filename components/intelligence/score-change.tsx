"use client";
// The AI Positioning Score's change beside the score, on /intelligence and the overview: over the
// score's window (score-change-data.ts), from the history the dashboard kept, named by its days
// ("▼ −4.0 pts  31 Oct – 29 Nov 2026: 57 → 53"), or the upstream's own 30-day trend, named as such,
// when the kept history cannot give it. The history is asked for through the same query factory as
// the history cards, so with the header's last 30 days the card and the chart share one request.
import type { ReactNode } from "react";
import { Skeleton, LoadingState } from "@/components/states/states";
import { useWidgetQuery, Widget } from "@/components/states/widget";
import { ChangeBadge } from "@/components/ui/change-badge";
import { UnknownValue } from "@/components/ui/value-badge";
import type { Score } from "@/lib/data-api/schemas";
import { apiQuery, browserApi } from "@/lib/queries/api";
import { rangeParams, type DateRange } from "@/lib/range/date-range";
import { useDateRange } from "@/lib/range/use-date-range";
import { scoreChangeView, scoreChangeWords, scoreWindow, type ScoreChangeView } from "./score-change-data";

/** The score's window in the header's zone, read at the page's first render (as the range is). */
export function useScoreWindow(): DateRange {
  const { range, nowMs } = useDateRange();
  return scoreWindow(range.tz, nowMs);
}

/** The kept score history of a window: the history card's own query when the range is that window. */
export const scoreHistoryQuery = (window: DateRange) => apiQuery(browserApi, "/history/score", { query: rangeParams(window) });

/** The kept ranking history of a window, likewise shared with the rank history card. */
export const rankingHistoryQuery = (window: DateRange) => apiQuery(browserApi, "/history/ranking", { query: rangeParams(window) });

/** The score's change in its own widget: it streams in after the score, and a slow history never holds the score back. */
export function ScoreChange({ score }: { score: Score }) {
  return (
    <Widget what="the score's change" loading={<Skeleton height={20} width="16rem" />}>
      <KeptScoreChange score={score} />
    </Widget>
  );
}

function KeptScoreChange({ score }: { score: Score }) {
  const window = useScoreWindow();
  const history = useWidgetQuery(scoreHistoryQuery(window));
  return (
    <ScoreChangeLine
      view={scoreChangeView(score, window, { answer: history.data, failed: history.isError })}
      direction={score.trend?.direction}
      current={score.score}
    />
  );
}

const KNOWN_DIRECTIONS = ["up", "down", "flat"];

/**
 * The change as read: its badge and, beside it, its window in words. `direction` is the upstream's
 * trend direction as sent, said as it is when it is not one the dashboard knows (only shown with the
 * upstream's trend); `current`, the score now, from which the upstream's change shows its base.
 */
export function ScoreChangeLine({ view, direction, current }: { view: ScoreChangeView; direction?: string; current?: number }) {
  const words = (extra?: ReactNode) => (
    <span className="small muted" data-testid="score-change-words">
      {scoreChangeWords(view)}
      {extra}
    </span>
  );
  if (view.source === "pending") {
    return (
      <LoadingState label="the score's change">
        <p className="score-change">{words()}</p>
      </LoadingState>
    );
  }
  const odd = view.source === "upstream" && direction !== undefined && !KNOWN_DIRECTIONS.includes(direction);
  return (
    <p className="score-change" data-testid="score-change" data-source={view.source}>
      {view.source === "kept" ? (
        // The words beside it give both ends ("57 → 53"): the badge need not say its base again.
        <ChangeBadge change={view.change} unit="score" />
      ) : (
        <ChangeBadge change={view.change} current={current} unit="score" direction={view.direction} />
      )}
      {words(
        odd && (
          <>
            {" "}
            (direction <UnknownValue value={direction} />)
          </>
        ),
      )}
    </p>
  );
}
