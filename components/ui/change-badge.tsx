// A change with its sign, an arrow and a colour, plus words for screen readers: colour never
// carries the meaning alone. Either a change the API sent (`value`), or one computed here from a
// figure and the same figure over the previous window (`current`, `previous`): a count changes by a
// relative percentage, a rate or a score by points; `window` names what it is compared with.
import { ARROWS, formatChange, formatNumber, type ChangeDirection, type FormattedChange } from "@/lib/format/format";

type SentChange = {
  value: number | undefined;
  unit?: "%" | "";
  /** Overrides the direction derived from the sign (e.g. a trend's own direction). */
  direction?: ChangeDirection;
  suffix?: string;
};

type ComparedChange = {
  current: number | null | undefined;
  previous: number | null | undefined;
  /** `count`: relative change in percent; `points`: the difference (rates in percentage points, scores in points). */
  unit: "count" | "points";
  /** What `previous` covers, read after "vs": "the previous 30 days (2 Oct – 31 Oct 2026)". */
  window: string;
  /** The window is only spoken (a note beside the figures names it once); this badge never shows it. */
  compact?: boolean;
};

const previousFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

/** The change from `previous` to `current` as the badge shows it. */
export function comparedChange(current: number | null | undefined, previous: number | null | undefined, unit: "count" | "points"): FormattedChange {
  if (!isNumber(current) || !isNumber(previous)) return formatChange(undefined);
  if (unit === "points") {
    const change = formatChange(current - previous, "");
    const abs = Math.abs(Number((current - previous).toFixed(1)));
    if (change.direction === "flat") return change;
    return { ...change, text: `${change.text} pt${abs === 1 ? "" : "s"}`, label: `${change.label} point${abs === 1 ? "" : "s"}` };
  }
  // From nothing there is no percentage to give: say it is new.
  if (previous === 0) return current === 0 ? formatChange(0) : { direction: "up", text: "new", label: `up from 0 to ${formatNumber(current)}` };
  return formatChange(((current - previous) / previous) * 100);
}

export function ChangeBadge(props: SentChange | ComparedChange) {
  let change: FormattedChange;
  let dir: ChangeDirection;
  let words: string;
  if ("current" in props) {
    change = comparedChange(props.current, props.previous, props.unit);
    dir = change.direction;
    words = `${change.label} vs ${props.window}${isNumber(props.previous) ? `, was ${previousFormat.format(props.previous)}` : ""}`;
  } else {
    change = formatChange(props.value, props.unit ?? "%");
    dir = props.direction ?? change.direction;
    words = `${change.label} ${props.suffix ?? "vs previous period"}`;
  }
  return (
    <span className={`change change-${dir}`} title={words} data-testid="change">
      <span className="change-arrow" aria-hidden="true">
        {ARROWS[dir]}
      </span>
      <span aria-hidden="true">{change.text}</span>
      <span className="visually-hidden">{words}</span>
    </span>
  );
}
