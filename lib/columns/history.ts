// The columns of the history on /intelligence: the score over time (one row per snapshot) and the
// ranks over time (one row per snapshot and entrant), for their tables' downloads. `at` is the
// upstream's `updated_at` of the snapshot (the instant the score was computed for).
import { col, defineColumns } from "./column";

export const SCORE_HISTORY_COLUMNS = defineColumns({
  at: col.timestamp("Score of", { header: "updated_at" }),
  score: col.integer("AI Positioning Score"),
  visibility: col.integer("Visibility"),
  sentiment: col.integer("Sentiment"),
  authority: col.integer("Authority"),
  coverage: col.integer("Coverage"),
  direction: col.token("30-day trend"),
  change: col.integer("30-day change (points)"),
});

export const RANK_HISTORY_COLUMNS = defineColumns({
  at: col.timestamp("Ranking of", { header: "updated_at" }),
  rank: col.integer("Rank"),
  name: col.text("Name"),
  score: col.number("AI Positioning Score"),
  is_workspace: col.boolean("This workspace"),
});
