// The columns of the competitor ranking: the ranking table on /intelligence and its download.
import { defineColumns } from "./column";

export const RANKING_COLUMNS = defineColumns([
  { key: "rank", label: "Rank", header: "rank", kind: "integer" },
  { key: "name", label: "Name", header: "name", kind: "text" },
  { key: "score", label: "AI Positioning Score", header: "score", kind: "number" },
  { key: "change", label: "Score change", header: "change", kind: "number" },
  { key: "is_workspace", label: "This workspace", header: "is_workspace", kind: "boolean" },
]);
