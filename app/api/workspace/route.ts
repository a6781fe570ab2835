// GET /api/workspace - the session's workspace: watching (off, on, paused and why), its linked keys (masked, with their links' ids), where its history begins, its time zone, and how much it keeps.
// DELETE /api/workspace {confirm: "delete"} - deletes everything kept for it and ends the session: 204 (lib/workspaces/routes.ts).
import { route } from "@/lib/server/route";
import { deleteWorkspace, readWorkspace } from "@/lib/workspaces/routes";
import { DELETE_CONFIRMATION_EXAMPLE, deleteConfirmation } from "@/lib/workspaces/schema";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the workspace" }, readWorkspace);
export const DELETE = route(
  { access: "session", write: true, store: true, body: deleteConfirmation, bodyExample: DELETE_CONFIRMATION_EXAMPLE, subject: "deleting what is kept" },
  deleteWorkspace,
);
