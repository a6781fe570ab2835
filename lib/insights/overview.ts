// The overview an assistant asks for first (the MCP tool `overview`): the trend's totals for the
// range and for what it is compared with, and their changes. Derived from /api/insights/trend's
// answer alone, so the tool and the route can never disagree. Rounding as every insight rounds
// (docs/product.md "Insights"): per cents and percentage points to one decimal.
import type { TrendInsight } from "./trend";

export type OverviewTotals = { visitors: number; ai_visitors: number; conversions: number; conversion_rate: number | null };
export type Overview = {
  from: string;
  to: string;
  tz: string;
  compare: { from: string; to: string };
  totals: OverviewTotals;
  previous: OverviewTotals;
  /** Per cent change of each total; null where the previous total is 0. */
  change_pct: { visitors: number | null; ai_visitors: number | null; conversions: number | null };
  /** Percentage points the conversion rate moved; null where either rate is unknown. */
  conversion_rate_change_pp: number | null;
};

const round1 = (n: number) => Math.round(n * 10) / 10;

function totalsOf(points: TrendInsight["data"]): OverviewTotals {
  const sum = (key: "visitors" | "ai_visitors" | "conversions") => points.reduce((total, p) => total + p[key], 0);
  const visitors = sum("visitors");
  const conversions = sum("conversions");
  return { visitors, ai_visitors: sum("ai_visitors"), conversions, conversion_rate: visitors > 0 ? round1((conversions / visitors) * 100) : null };
}

const pctChange = (now: number, before: number) => (before > 0 ? round1(((now - before) / before) * 100) : null);

export function overviewOf(trend: Pick<TrendInsight, "from" | "to" | "tz" | "compare" | "data" | "previous">): Overview {
  const totals = totalsOf(trend.data);
  const previous = totalsOf(trend.previous);
  return {
    from: trend.from,
    to: trend.to,
    tz: trend.tz,
    compare: trend.compare,
    totals,
    previous,
    change_pct: {
      visitors: pctChange(totals.visitors, previous.visitors),
      ai_visitors: pctChange(totals.ai_visitors, previous.ai_visitors),
      conversions: pctChange(totals.conversions, previous.conversions),
    },
    conversion_rate_change_pp:
      totals.conversion_rate !== null && previous.conversion_rate !== null ? round1(totals.conversion_rate - previous.conversion_rate) : null,
  };
}

const signed = (n: number | null, unit: string) => (n === null ? "n/a" : `${n > 0 ? "+" : ""}${n}${unit}`);

/** The overview in two sentences a model can quote. */
export function overviewSummary(o: Overview): string {
  return (
    `${o.from} to ${o.to} (${o.tz}): ${o.totals.visitors} visitors (${signed(o.change_pct.visitors, "%")}), ` +
    `${o.totals.ai_visitors} from AI assistants (${signed(o.change_pct.ai_visitors, "%")}), ` +
    `${o.totals.conversions} conversions (${signed(o.change_pct.conversions, "%")}; rate ${o.totals.conversion_rate ?? "n/a"}%, ${signed(o.conversion_rate_change_pp, " pp")}). ` +
    `Compared with ${o.compare.from} to ${o.compare.to}.`
  );
}
