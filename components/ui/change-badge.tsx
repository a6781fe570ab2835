// A change against an earlier window, with its sign, an arrow, a colour and words for screen readers
// (colour never carries the meaning alone), always naming the window it compares with.
// Two ways in:
// - compared: `current` and `previous` figures, the badge works the change out: a count's relative
//   change ("up 12% vs 2 Oct – 31 Oct"), or a rate's difference in points ("up 1 point vs …");
//   nothing misleading where there is no base: growth from 0 is "new", an unknown figure is "—".
// - reported: a `change` the Data API already computed (its KPIs, a score trend, a ranking move).
import { ARROWS, formatChange, formatNumber, formatPercent, MISSING, type ChangeDirection } from "@/lib/format/format";
import styles from "./change-badge.module.css";

type Figure = number | null | undefined;

export type ComparedChangeProps = {
  current: Figure;
  previous: Figure;
  /** "count": relative change in percent; "points": the difference of two rates (percentage points). */
  unit: "count" | "points";
  /** The earlier window, as read: "2 Oct – 31 Oct 2026", "the previous 30 days". */
  window: string;
  /** Keeps the window out of the visible text (a table whose caption names it); it is still spoken. */
  compact?: boolean;
};

export type ReportedChangeProps = {
  change: Figure;
  /** "percent": a relative change as the API reports it; "points": a difference in points. */
  unit: "percent" | "points";
  window?: string;
  /** Overrides the direction derived from the sign (e.g. a trend's own direction). */
  direction?: ChangeDirection;
  compact?: boolean;
};

export type ChangeBadgeProps = ComparedChangeProps | ReportedChangeProps;

export type DescribedChange = {
  direction: ChangeDirection;
  /** Short signed text: "+12%", "−1 pt", "new", "—". */
  text: string;
  /** The whole statement: "up 12% vs 2 Oct – 31 Oct 2026". */
  label: string;
};

const isFigure = (n: Figure): n is number => typeof n === "number" && Number.isFinite(n);
const versus = (window: string | undefined) => (window ? ` vs ${window}` : "");

/** What a badge says: its direction, its short text and the full spoken statement. */
export function describeChange(props: ChangeBadgeProps): DescribedChange {
  if ("change" in props) {
    if (!isFigure(props.change)) return { direction: "flat", text: MISSING, label: "change unknown" };
    // A trend may report its change as a magnitude beside its direction ("down", change 3): the
    // direction gives the sign, so the badge never reads "▼ +3".
    const signed = props.direction === "down" ? -Math.abs(props.change) : props.direction === "up" ? Math.abs(props.change) : props.change;
    const f = formatChange(signed, props.unit === "points" ? "points" : "%");
    return { direction: props.direction ?? f.direction, text: f.text, label: `${f.label}${versus(props.window)}` };
  }
  const { current, previous, unit, window } = props;
  if (!isFigure(current)) return { direction: "flat", text: MISSING, label: "change unknown" };
  if (!isFigure(previous)) {
    // A rate is null where its base is 0: there is nothing to compare with, which is not "no change".
    const what = unit === "points" ? "no rate" : "no figure";
    return { direction: "flat", text: MISSING, label: `${what} to compare in ${window}` };
  }
  if (unit === "points") {
    const f = formatChange(current - previous, "points");
    return { direction: f.direction, text: f.text, label: `${f.label}${versus(window)}` };
  }
  if (previous === 0) {
    // Growth from nothing has no percentage: say what happened instead of "+100%" or "∞".
    if (current === 0) return { direction: "flat", text: formatChange(0).text, label: `no change${versus(window)} (none in either)` };
    return { direction: "up", text: "new", label: `up from none in ${window}` };
  }
  const f = formatChange(((current - previous) / previous) * 100, "%");
  if (f.direction === "flat" && current !== previous) {
    // Rounds to 0% but is not equal: say its direction, not "no change".
    const direction: ChangeDirection = current > previous ? "up" : "down";
    return { direction, text: `${current > previous ? "+" : "\u2212"}<0.1%`, label: `${direction} less than 0.1%${versus(window)}` };
  }
  return { direction: f.direction, text: f.text, label: `${f.label}${versus(window)}` };
}

/** The earlier figure, for the tooltip: "; 1,234 then", "; 3.2% then". */
function previousNote(props: ChangeBadgeProps): string {
  if ("change" in props || !isFigure(props.previous)) return "";
  return `; ${props.unit === "points" ? formatPercent(props.previous) : formatNumber(props.previous)} then`;
}

export function ChangeBadge(props: ChangeBadgeProps) {
  const change = describeChange(props);
  const window = props.window;
  return (
    <span className={styles.badge} title={`${change.label}${previousNote(props)}`} data-testid="change">
      <span className={`change change-${change.direction}`} aria-hidden="true">
        <span className="change-arrow">{ARROWS[change.direction]}</span>
        {change.text}
      </span>
      {window && !props.compact && change.text !== MISSING && (
        <span className={styles.window} aria-hidden="true">
          vs {window}
        </span>
      )}
      <span className="visually-hidden">{change.label}</span>
    </span>
  );
}
