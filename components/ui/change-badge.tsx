// A change against an earlier window, with its sign, an arrow, a colour and the number it is compared
// with, shown and spoken in the same words: "1,045, up 25.1% from 835", "4.7%, up 0.8 pts from
// 3.9%". A percentage alone hides whether 25% is 4 visitors or 4,000, so the base is always visible
// (beside the pill, quieter); colour never carries the meaning alone, and the spoken statement names
// the window too. Two ways in:
// - compared: `current` and `previous` figures, the badge works the change out: a count's relative
//   change, or the difference of two rates or scores in points; nothing misleading where there is no
//   base: growth from 0 is "new", an unknown figure is "—".
// - reported: a `change` Workspace Analytics already computed (a period's pageviews, the score's trend,
//   a ranking move); with the figure now (`current`) the base is worked back from it.
// Either way the answer may say whether the change is beyond chance (`significance`, from its
// `significant` and `p_values`): a change within normal variation is muted and says so in words; one
// beyond it keeps its colour; the test and its p-value show on hover and focus and are spoken.
import { useId } from "react";
import type { Verdict } from "@/lib/stats/exact-tests";
import { formatP, TEST_NAMES as TESTS } from "@/lib/stats/significance";
import { ARROWS, formatChange, formatNumber, formatPercent, MISSING, type ChangeDirection } from "@/lib/format/format";
import styles from "./change-badge.module.css";

type Figure = number | null | undefined;

/**
 * What kind of figure changed, which decides how the change and its base read:
 * - "count": a relative change in per cent, the base a count ("+25.1%", "from 835");
 * - "rate": a difference of two rates in points, the base a rate ("+0.8 pts", "from 3.9%");
 * - "score": a difference of two scores in points, the base a score ("+2.0 pts", "from 61").
 */
export type ChangeUnit = "count" | "rate" | "score";

export type ComparedChangeProps = {
  current: Figure;
  previous: Figure;
  unit: ChangeUnit;
  /** The earlier window, as read: "2 Oct – 31 Oct 2026", "the previous 30 days (…)". */
  window: string;
  /** Keeps the window out of the visible text (a table whose caption or note names it); it is still spoken. The base stays. */
  compact?: boolean;
  significance?: Verdict | null;
};

export type ReportedChangeProps = {
  /** For a count, its relative change in per cent as reported; for a rate or a score, the difference in points. */
  change: Figure;
  unit: ChangeUnit;
  /** The figure now: the base is worked back from it (exactly for points, "about" for a per cent of a count). */
  current?: Figure;
  window?: string;
  /** Overrides the direction derived from the sign (e.g. a trend's own direction). */
  direction?: ChangeDirection;
  compact?: boolean;
  /** Whether the change is beyond chance, as the answer says (verdictOf); undefined when it does not say. */
  significance?: Verdict | null;
};

export type ChangeBadgeProps = ComparedChangeProps | ReportedChangeProps;

export type DescribedChange = {
  direction: ChangeDirection;
  /** Short signed text: "+12.0%", "−1.0 pt", "new", "—". */
  text: string;
  /** What the change is from: "from 835", "from 3.9%", "from about 11,387"; null where there is none to say. */
  base: string | null;
  /** The whole statement: "up 12.0% from 1,000 in 2 Oct – 31 Oct 2026". */
  label: string;
};

const isFigure = (n: Figure): n is number => typeof n === "number" && Number.isFinite(n);

/** A base figure as its kind reads: a count or score as a whole number, a rate in per cent. */
const baseText = (unit: ChangeUnit, n: number) => (unit === "rate" ? formatPercent(n) : formatNumber(n));

/** "up 12.0%" + " from 1,000" + " in 2 Oct – 31 Oct 2026": the base, then the window it belongs to. */
function statement(words: string, base: string | null, window: string | undefined): string {
  if (base) return `${words} ${base}${window ? ` in ${window}` : ""}`;
  return `${words}${window ? ` vs ${window}` : ""}`;
}

/** The earlier figure a reported change stands on, or null when it cannot be worked back. */
function reportedBase(unit: ChangeUnit, current: Figure, signed: number): string | null {
  if (!isFigure(current)) return null;
  if (unit !== "count") return `from ${baseText(unit, current - signed)}`;
  // A relative change rounded to 0.1% gives the earlier count to within a few parts in ten thousand.
  const factor = 1 + signed / 100;
  return factor > 0 ? `from about ${formatNumber(current / factor)}` : null;
}

/** What a badge says: its direction, its short text, its base and the full spoken statement. */
export function describeChange(props: ChangeBadgeProps): DescribedChange {
  const unknown = { direction: "flat", text: MISSING, base: null, label: "change unknown" } as const;
  if ("change" in props) {
    if (!isFigure(props.change)) return unknown;
    // A trend may report its change as a magnitude beside its direction ("down", change 3): the
    // direction gives the sign, so the badge never reads "▼ +3".
    const signed = props.direction === "down" ? -Math.abs(props.change) : props.direction === "up" ? Math.abs(props.change) : props.change;
    const f = formatChange(signed, props.unit === "count" ? "%" : "points");
    const base = reportedBase(props.unit, props.current, signed);
    return { direction: props.direction ?? f.direction, text: f.text, base, label: statement(f.label, base, props.window) };
  }
  const { current, previous, unit, window } = props;
  if (!isFigure(current)) return unknown;
  if (!isFigure(previous)) {
    // A rate is null where its base is 0: there is nothing to compare with, which is not "no change".
    const what = unit === "rate" ? "no rate" : "no figure";
    return { direction: "flat", text: MISSING, base: null, label: `${what} to compare in ${window}` };
  }
  const base = `from ${baseText(unit, previous)}`;
  if (unit !== "count") {
    const f = formatChange(current - previous, "points");
    return { direction: f.direction, text: f.text, base, label: statement(f.label, base, window) };
  }
  if (previous === 0) {
    // Growth from nothing has no percentage: say what happened instead of "+100%" or "∞".
    if (current === 0) return { direction: "flat", text: formatChange(0).text, base, label: statement("no change", base, window) };
    return { direction: "up", text: "new", base, label: statement("up", base, window) };
  }
  const f = formatChange(((current - previous) / previous) * 100, "%");
  if (f.direction === "flat" && current !== previous) {
    // Rounds to 0% but is not equal: say its direction, not "no change".
    const direction: ChangeDirection = current > previous ? "up" : "down";
    return { direction, text: `${current > previous ? "+" : "\u2212"}<0.1%`, base, label: statement(`${direction} less than 0.1%`, base, window) };
  }
  return { direction: f.direction, text: f.text, base, label: statement(f.label, base, window) };
}

/** What a verdict means, in words: the badge's hover text and what it adds to the spoken statement. */
export function significanceText(verdict: Verdict): { words: string; detail: string } {
  const words = verdict.significant ? "beyond normal variation" : "within normal variation";
  const chance = verdict.significant ? "a change this large would come by chance less than 1 time in 20" : "a change this large can come by chance alone";
  return { words, detail: `${words[0]!.toUpperCase()}${words.slice(1)}: ${chance} (${TESTS[verdict.test]}, ${formatP(verdict.p)}).` };
}

export function ChangeBadge(props: ChangeBadgeProps) {
  const change = describeChange(props);
  const tipId = useId();
  // Outside a table the window is shown too (a table's caption or note names it once for all rows).
  const window = props.window && !props.compact && change.text !== MISSING ? props.window : null;
  const verdict = change.text !== MISSING && change.direction !== "flat" ? props.significance : undefined;
  const said = verdict ? significanceText(verdict) : null;
  const muted = verdict?.significant === false;
  const label = said ? `${change.label}, ${said.words} (${TESTS[verdict!.test]}, ${formatP(verdict!.p)})` : change.label;
  return (
    <span
      className={`${styles.badge}${said ? ` ${styles.judged}` : ""}`}
      title={said ? undefined : change.label}
      data-testid="change"
      data-significance={verdict === undefined ? undefined : verdict === null ? "unknown" : verdict.significant ? "beyond" : "within"}
      tabIndex={said ? 0 : undefined}
      aria-describedby={said ? tipId : undefined}
    >
      <span className={`change change-${muted ? "muted" : change.direction}`} aria-hidden="true">
        <span className="change-arrow">{ARROWS[change.direction]}</span>
        {change.text}
      </span>
      {change.base && <ChangeBase>{change.base}</ChangeBase>}
      {window && (
        <span className={styles.window} aria-hidden="true">
          {change.base ? "in" : "vs"} {window}
        </span>
      )}
      {muted && (
        <span className={styles.noise} aria-hidden="true" data-testid="change-noise">
          {props.compact ? "normal variation" : "within normal variation"}
        </span>
      )}
      <span className="visually-hidden">{label}</span>
      {said && (
        <span className={styles.tip} id={tipId} role="tooltip" data-testid="change-tip">
          {said.detail}
        </span>
      )}
    </span>
  );
}

/** The base beside a change drawn elsewhere (a move in average position), in the badge's words and look. */
export function ChangeBase({ children }: { children: string }) {
  return (
    <span className={styles.base} aria-hidden="true" data-testid="change-base">
      {children}
    </span>
  );
}
