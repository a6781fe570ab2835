// The columns of the competitors named with the brand (share of voice, /platforms): the table and
// its download. Sentiment is three count columns, so the file stays flat for a spreadsheet.
import type { Column } from "./column";

type CompetitorColumnKey = "name" | "mentions" | "share" | "positive" | "neutral" | "negative";

export const COMPETITOR_COLUMNS: readonly Column<CompetitorColumnKey>[] = [
  { key: "name", label: "Competitor", header: "name", kind: "text" },
  { key: "mentions", label: "Mentions naming it", header: "mentions", kind: "integer" },
  // A per cent value (12.5 means 12.5%): the unit in the label and the plain CSV header.
  { key: "share", label: "Share of mentions (%)", header: "share_pct", kind: "number" },
  { key: "positive", label: "Positive", header: "positive", kind: "integer" },
  { key: "neutral", label: "Neutral", header: "neutral", kind: "integer" },
  { key: "negative", label: "Negative", header: "negative", kind: "integer" },
];
