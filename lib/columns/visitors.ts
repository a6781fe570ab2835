// The columns of a visitor (the Data API's Visitor), in export order: the visitor table, the export
// and its CSV headers all read them from here.
import { sourceLabelOf } from "@/lib/data-api/constants";
import { col, defineColumns } from "./column";
import { intentLabelOf } from "./labels";

export const VISITOR_COLUMNS = defineColumns({
  id: col.token("Visitor ID"),
  first_seen: col.timestamp("First seen"),
  last_seen: col.timestamp("Last seen"),
  source: col.token("Source", { display: sourceLabelOf }),
  intent: col.token("Intent", { display: intentLabelOf }),
  pages_viewed: col.integer("Pages viewed"),
  converted: col.boolean("Converted"),
  email: col.text("Email"),
  country: col.token("Country"),
  city: col.text("City"),
});
