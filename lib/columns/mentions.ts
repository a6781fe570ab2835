// The columns of an AI mention (the Data API's Mention), in export order.
import { col, defineColumns } from "./column";

export const MENTION_COLUMNS = defineColumns({
  id: col.token("Mention ID"),
  created_at: col.timestamp("Mentioned at"),
  platform: col.token("AI platform"),
  sentiment: col.token("Sentiment"),
  position: col.integer("Position in answer"),
  query: col.text("Query"),
  response_snippet: col.text("Answer excerpt"),
  competitors_mentioned: col.list("Competitors mentioned"),
});
