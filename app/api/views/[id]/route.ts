// PATCH /api/views/{id} - renames a saved view {name}; DELETE - deletes it (lib/views/routes.ts).
import { route } from "@/lib/server/route";
import { deleteView, renameView } from "@/lib/views/routes";
import { RENAMED_VIEW_EXAMPLE, renamedView, VIEW_ID } from "@/lib/views/schema";

export const dynamic = "force-dynamic";
export const PATCH = route(
  {
    access: "session",
    write: true,
    store: true,
    pathParams: { id: VIEW_ID },
    body: renamedView,
    bodyExample: RENAMED_VIEW_EXAMPLE,
    subject: "renaming the view",
  },
  renameView,
);
export const DELETE = route({ access: "session", write: true, store: true, pathParams: { id: VIEW_ID }, subject: "deleting the view" }, deleteView);
