// The AI Positioning Score with its 0–100 range and trend; used by the overview card and /intelligence.
import { formatNumber, toDirection } from "@/lib/format/format";
import type { Score } from "@/lib/data-api/schemas";
import { ChangeBadge } from "./change-badge";

export const SCORE_MAX = 100;

export function ScoreSummary({ score, size = "normal" }: { score: Score; size?: "normal" | "large" }) {
  const value = score.score;
  const direction = toDirection(score.trend?.direction, score.trend?.change);
  return (
    <div className={`score score-${size}`}>
      <div className="score-figure">
        <span className="score-value" data-testid="score-value">
          {formatNumber(value)}
        </span>
        <span className="score-range">/ {SCORE_MAX}</span>
        <ChangeBadge change={score.trend?.change} unit="points" direction={direction} />
      </div>
      {/* An unknown score draws no meter: an empty one would read as a score of 0. */}
      {value !== undefined && (
        <>
          <div
            className="meter"
            role="meter"
            aria-label="AI Positioning Score"
            aria-valuemin={0}
            aria-valuemax={SCORE_MAX}
            aria-valuenow={value}
            aria-valuetext={`${formatNumber(value)} out of ${SCORE_MAX}`}
          >
            <span className="meter-fill" style={{ width: `${Math.max(0, Math.min(100, (value / SCORE_MAX) * 100))}%` }} />
          </div>
          <div className="meter-scale muted small" aria-hidden="true">
            <span>0</span>
            <span>50</span>
            <span>100</span>
          </div>
        </>
      )}
    </div>
  );
}
