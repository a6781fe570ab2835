// The columns of the overview's small tables people download from a card: the KPIs, traffic by
// source and the funnel (rows as the charts' data mapping builds them). Percentages here are per cent
// values (12.5 means 12.5%): `change` is the relative change against the previous period, rates and
// shares are shares of a base. Named `_pct`, not `_pp`: percentage points are differences between two
// percentages, which none of these are.
import { defineColumns } from "./column";

export const OVERVIEW_COLUMNS = defineColumns([
  { key: "metric", label: "Metric", header: "metric", kind: "token" },
  { key: "total", label: "Total", header: "total", kind: "integer" },
  { key: "change", label: "Change vs previous period (%)", header: "change_vs_previous_period_pct", kind: "number" },
  { key: "rate", label: "Conversion rate or share of visitors (%)", header: "rate_or_share_pct", kind: "number" },
]);

export const TRAFFIC_COLUMNS = defineColumns([
  { key: "source", label: "Source", header: "source", kind: "token" },
  { key: "group", label: "Group", header: "group", kind: "token" },
  { key: "visitors", label: "Visitors", header: "visitors", kind: "integer" },
  { key: "percentage", label: "Share of visitors (%)", header: "share_of_visitors_pct", kind: "number" },
  { key: "change", label: "Change vs previous period (%)", header: "change_vs_previous_period_pct", kind: "number" },
]);

export const FUNNEL_COLUMNS = defineColumns([
  { key: "stage", label: "Stage", header: "stage", kind: "token" },
  { key: "label", label: "Stage name", header: "label", kind: "text" },
  { key: "count", label: "Visitors", header: "count", kind: "integer" },
  { key: "stepRate", label: "Conversion from previous stage (%)", header: "conversion_from_previous_stage_pct", kind: "number" },
  { key: "overallRate", label: "Conversion from first stage (%)", header: "conversion_from_first_stage_pct", kind: "number" },
]);
