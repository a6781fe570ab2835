// The columns of an AI mention (the Data API's Mention), in export order.
import { defineColumns } from "./column";

export const MENTION_COLUMNS = defineColumns([
  { key: "id", label: "Mention ID", header: "id", kind: "token" },
  { key: "created_at", label: "Mentioned at", header: "created_at", kind: "timestamp" },
  { key: "platform", label: "AI platform", header: "platform", kind: "token" },
  { key: "sentiment", label: "Sentiment", header: "sentiment", kind: "token" },
  { key: "position", label: "Position in answer", header: "position", kind: "integer" },
  { key: "query", label: "Query", header: "query", kind: "text" },
  { key: "response_snippet", label: "Answer excerpt", header: "response_snippet", kind: "text" },
  { key: "competitors_mentioned", label: "Competitors mentioned", header: "competitors_mentioned", kind: "list" },
]);
