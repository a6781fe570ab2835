// The columns of an AI mention (the Data API's Mention), in export order.
import { sourceLabelOf } from "@/lib/data-api/constants";
import { col, defineColumns } from "./column";
import { sentimentLabelOf } from "./labels";

export const MENTION_COLUMNS = defineColumns({
  id: col.token("Mention ID"),
  created_at: col.timestamp("Mentioned at"),
  platform: col.token("AI platform", { display: sourceLabelOf }),
  sentiment: col.token("Sentiment", { display: sentimentLabelOf }),
  position: col.integer("Position in answer"),
  query: col.text("Query"),
  response_snippet: col.text("Answer excerpt"),
  competitors_mentioned: col.list("Competitors mentioned"),
});
