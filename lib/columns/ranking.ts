// The columns of the competitor ranking: the ranking table on /intelligence and its download.
import { col, defineColumns } from "./column";

export const RANKING_COLUMNS = defineColumns({
  rank: col.integer("Rank"),
  name: col.text("Name"),
  score: col.number("AI Positioning Score"),
  change: col.number("Score change"),
  is_workspace: col.boolean("This workspace"),
});
