// The columns of a visitor (the Data API's Visitor), in export order: the visitor table, the export
// and its CSV headers all read them from here.
import { col, defineColumns } from "./column";

export const VISITOR_COLUMNS = defineColumns({
  id: col.token("Visitor ID"),
  first_seen: col.timestamp("First seen"),
  last_seen: col.timestamp("Last seen"),
  source: col.token("Source"),
  intent: col.token("Intent"),
  pages_viewed: col.integer("Pages viewed"),
  converted: col.boolean("Converted"),
  email: col.text("Email"),
  country: col.token("Country"),
  city: col.text("City"),
});
