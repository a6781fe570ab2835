// The columns of a visitor's timeline event, for its download from the visitor page.
import { sourceLabelOf } from "@/lib/data-api/constants";
import { col, defineColumns } from "./column";
import { eventLabel } from "./labels";

export const TIMELINE_COLUMNS = defineColumns({
  occurred_at: col.timestamp("Time"),
  type: col.token("Event", { display: eventLabel }),
  title: col.text("Page title"),
  url: col.text("URL"),
  source: col.token("Source", { display: sourceLabelOf }),
  duration_seconds: col.number("Time on page (s)"),
});
