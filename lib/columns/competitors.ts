// The columns of the competitors named with the brand (share of voice, /platforms): the table and
// its download. Sentiment is three count columns, so the file stays flat for a spreadsheet.
import { col, defineColumns } from "./column";

export const COMPETITOR_COLUMNS = defineColumns({
  name: col.text("Competitor"),
  mentions: col.integer("Mentions naming it"),
  share: col.percent("Share of mentions", { header: "share_pct" }),
  positive: col.integer("Positive"),
  neutral: col.integer("Neutral"),
  negative: col.integer("Negative"),
});
