// The columns of the questions put to AI platforms (/queries): its table and cards. A question's
// mentions are split by platform and by sentiment as counts, a column each, so a row stays flat as a
// spreadsheet would have it.
import { LABELS, PLATFORMS } from "@/lib/data-api/constants";
import { col, defineColumns } from "./column";

const platform = (p: (typeof PLATFORMS)[number]) => col.integer(LABELS[p] ?? p, { header: `${p}_mentions` });

export const QUESTION_COLUMNS = defineColumns({
  query: col.text("Question"),
  mentions: col.integer("Mentions"),
  chatgpt: platform("chatgpt"),
  claude: platform("claude"),
  perplexity: platform("perplexity"),
  gemini: platform("gemini"),
  avg_position: col.number("Avg. position"),
  best_position: col.integer("Best position"),
  worst_position: col.integer("Worst position"),
  first_share: col.percent("Named first", { header: "named_first_pct" }),
  positive: col.integer("Positive"),
  neutral: col.integer("Neutral"),
  negative: col.integer("Negative"),
});
