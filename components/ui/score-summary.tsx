// The AI Positioning Score with its 0–100 range and its change; used by the overview card and
// /intelligence. The change is the caller's (components/intelligence/score-change.tsx: over the
// score's window from the kept history, or the upstream's trend, named), so both pages say one.
import type { ReactNode } from "react";
import { formatNumber } from "@/lib/format/format";
import type { Score } from "@/lib/data-api/schemas";

export const SCORE_MAX = 100;

export function ScoreSummary({ score, change, size = "normal" }: { score: Score; change: ReactNode; size?: "normal" | "large" }) {
  const value = score.score;
  return (
    <div className={`score score-${size}`}>
      <div className="score-figure">
        <span className="score-value" data-testid="score-value">
          {formatNumber(value)}
        </span>
        <span className="score-range">/ {SCORE_MAX}</span>
      </div>
      {change}
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
