// The columns of the competitors named with the brand (share of voice, /platforms): the table and
// its download. Sentiment is three count columns, so the file stays flat for a spreadsheet.
import { defineColumns } from "./column";

export const COMPETITOR_COLUMNS = defineColumns([
  { key: "name", label: "Competitor", header: "name", kind: "text" },
  { key: "mentions", label: "Mentions naming it", header: "mentions", kind: "integer" },
  { key: "share", label: "Share of mentions", header: "share", kind: "number" },
  { key: "positive", label: "Positive", header: "positive", kind: "integer" },
  { key: "neutral", label: "Neutral", header: "neutral", kind: "integer" },
  { key: "negative", label: "Negative", header: "negative", kind: "integer" },
]);
