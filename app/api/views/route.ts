// GET /api/views - the workspace's saved views, by name; POST - saves one {name, path, query} (lib/views/routes.ts).
import { route } from "@/lib/server/route";
import { createView, listViews } from "@/lib/views/routes";
import { NEW_VIEW_EXAMPLE, newView } from "@/lib/views/schema";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the saved views" }, listViews);
export const POST = route(
  { access: "session", write: true, store: true, body: newView, bodyExample: NEW_VIEW_EXAMPLE, subject: "saving the view" },
  createView,
);
