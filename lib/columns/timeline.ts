// The columns of a visitor's timeline event, for its download from the visitor page.
import { defineColumns } from "./column";

export const TIMELINE_COLUMNS = defineColumns([
  { key: "occurred_at", label: "Time", header: "occurred_at", kind: "timestamp" },
  { key: "type", label: "Event", header: "type", kind: "token" },
  { key: "title", label: "Page title", header: "title", kind: "text" },
  { key: "url", label: "URL", header: "url", kind: "text" },
  { key: "source", label: "Source", header: "source", kind: "token" },
  { key: "duration_seconds", label: "Time on page (s)", header: "duration_seconds", kind: "number" },
]);
