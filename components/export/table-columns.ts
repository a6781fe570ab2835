// The columns of the small tables people download from a card (overview KPIs, traffic, funnel,
// ranking, a visitor's timeline): machine names for the plain CSV, labels for "CSV for Excel".
// Percentages here are per cent values (12.5 means 12.5%): `change` is the relative change against the
// previous period, rates and shares are shares of a base. Named `_pct`, not `_pp`: percentage points
// are differences between two percentages, which none of these are.
import type { CsvColumn } from "@/lib/csv";

export const OVERVIEW_CSV_COLUMNS: CsvColumn[] = [
  { key: "metric", header: "metric", label: "Metric" },
  { key: "total", header: "total", label: "Total" },
  { key: "change", header: "change_vs_previous_period_pct", label: "Change vs previous period (%)" },
  { key: "rate", header: "rate_or_share_pct", label: "Conversion rate or share of visitors (%)" },
];

export const TRAFFIC_CSV_COLUMNS: CsvColumn[] = [
  { key: "source", header: "source", label: "Source" },
  { key: "group", header: "group", label: "Group" },
  { key: "visitors", header: "visitors", label: "Visitors" },
  { key: "percentage", header: "share_of_visitors_pct", label: "Share of visitors (%)" },
  { key: "change", header: "change_vs_previous_period_pct", label: "Change vs previous period (%)" },
];

export const FUNNEL_CSV_COLUMNS: CsvColumn[] = [
  { key: "stage", header: "stage", label: "Stage" },
  { key: "label", header: "label", label: "Stage name" },
  { key: "count", header: "count", label: "Visitors" },
  { key: "stepRate", header: "conversion_from_previous_stage_pct", label: "Conversion from previous stage (%)" },
  { key: "overallRate", header: "conversion_from_first_stage_pct", label: "Conversion from first stage (%)" },
];

export const RANKING_CSV_COLUMNS: CsvColumn[] = [
  { key: "rank", header: "rank", label: "Rank" },
  { key: "name", header: "name", label: "Name" },
  { key: "score", header: "score", label: "AI Positioning Score" },
  { key: "change", header: "change", label: "Score change" },
  { key: "is_workspace", header: "is_workspace", label: "This workspace", kind: "boolean" },
];

export const TIMELINE_CSV_COLUMNS: CsvColumn[] = [
  { key: "occurred_at", header: "occurred_at", label: "Time (UTC)", kind: "timestamp" },
  { key: "type", header: "type", label: "Event" },
  { key: "title", header: "title", label: "Page title" },
  { key: "url", header: "url", label: "URL" },
  { key: "source", header: "source", label: "Source" },
  { key: "duration_seconds", header: "duration_seconds", label: "Time on page (s)" },
];
