// The columns of a visitor (the Data API's Visitor), in export order: the visitor table, the export
// and its CSV headers all read them from here.
import { defineColumns } from "./column";

export const VISITOR_COLUMNS = defineColumns([
  { key: "id", label: "Visitor ID", header: "id", kind: "token" },
  { key: "first_seen", label: "First seen", header: "first_seen", kind: "timestamp" },
  { key: "last_seen", label: "Last seen", header: "last_seen", kind: "timestamp" },
  { key: "source", label: "Source", header: "source", kind: "token" },
  { key: "intent", label: "Intent", header: "intent", kind: "token" },
  { key: "pages_viewed", label: "Pages viewed", header: "pages_viewed", kind: "integer" },
  { key: "converted", label: "Converted", header: "converted", kind: "boolean" },
  { key: "email", label: "Email", header: "email", kind: "text" },
  { key: "country", label: "Country", header: "country", kind: "token" },
  { key: "city", label: "City", header: "city", kind: "text" },
]);
