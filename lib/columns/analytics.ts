// The columns of the overview's small tables people download from a card: the KPIs, traffic by
// source and the funnel (rows as the charts' data mapping builds them). Percentages here are per cent
// values (12.5 means 12.5%): `change` is the relative change against the previous period, rates and
// shares are shares of a base. Named `_pct`, not `_pp`: percentage points are differences between two
// percentages, which none of these are.
import { col, defineColumns } from "./column";

export const OVERVIEW_COLUMNS = defineColumns({
  metric: col.token("Metric"),
  total: col.integer("Total"),
  change: col.number("Change vs previous period (%)", { header: "change_vs_previous_period_pct" }),
  rate: col.number("Conversion rate or share of visitors (%)", { header: "rate_or_share_pct" }),
});

export const TRAFFIC_COLUMNS = defineColumns({
  source: col.token("Source"),
  group: col.token("Group"),
  visitors: col.integer("Visitors"),
  percentage: col.number("Share of visitors (%)", { header: "share_of_visitors_pct" }),
  change: col.number("Change vs previous period (%)", { header: "change_vs_previous_period_pct" }),
});

export const FUNNEL_COLUMNS = defineColumns({
  stage: col.token("Stage"),
  label: col.text("Stage name"),
  count: col.integer("Visitors"),
  stepRate: col.number("Conversion from previous stage (%)", { header: "conversion_from_previous_stage_pct" }),
  overallRate: col.number("Conversion from first stage (%)", { header: "conversion_from_first_stage_pct" }),
});
