// A change with its sign, an arrow and a colour, plus words for screen readers: colour never
// carries the meaning alone.
import { ARROWS, formatChange, type ChangeDirection } from "@/lib/format/format";

export function ChangeBadge({
  value,
  unit = "%",
  direction,
  suffix = "vs previous period",
}: {
  value: number | undefined;
  unit?: "%" | "";
  /** Overrides the direction derived from the sign (e.g. a trend's own direction). */
  direction?: ChangeDirection;
  suffix?: string;
}) {
  const change = formatChange(value, unit);
  const dir = direction ?? change.direction;
  return (
    <span className={`change change-${dir}`} title={`${change.label} ${suffix}`} data-testid="change">
      <span className="change-arrow" aria-hidden="true">
        {ARROWS[dir]}
      </span>
      <span aria-hidden="true">{change.text}</span>
      <span className="visually-hidden">
        {change.label} {suffix}
      </span>
    </span>
  );
}
