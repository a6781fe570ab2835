// The columns of the overview's small tables people download from a card: the KPIs, traffic by
// source and the funnel (rows as the charts' data mapping builds them). `change` is the relative
// change against the previous period, rates and shares are shares of a base: all per cent values.
import { sourceLabelOf } from "@/lib/data-api/constants";
import { col, defineColumns } from "./column";
import { metricLabelOf, sourceGroupLabelOf } from "./labels";

export const OVERVIEW_COLUMNS = defineColumns({
  metric: col.token("Metric", { display: metricLabelOf }),
  total: col.integer("Total"),
  change: col.percent("Change vs previous period"),
  rate: col.percent("Conversion rate or share of visitors", { header: "rate_or_share_pct" }),
});

export const TRAFFIC_COLUMNS = defineColumns({
  source: col.token("Source", { display: sourceLabelOf }),
  group: col.token("Group", { display: sourceGroupLabelOf }),
  visitors: col.integer("Visitors"),
  percentage: col.percent("Share of visitors"),
  change: col.percent("Change vs previous period"),
});

export const FUNNEL_COLUMNS = defineColumns({
  stage: col.token("Stage"),
  label: col.text("Stage name"),
  count: col.integer("Visitors"),
  stepRate: col.percent("Conversion from previous stage"),
  overallRate: col.percent("Conversion from first stage"),
});
