// The columns of a visitor's timeline event, for its download from the visitor page.
import { col, defineColumns } from "./column";

export const TIMELINE_COLUMNS = defineColumns({
  occurred_at: col.timestamp("Time"),
  type: col.token("Event"),
  title: col.text("Page title"),
  url: col.text("URL"),
  source: col.token("Source"),
  duration_seconds: col.number("Time on page (s)"),
});
