// GET /api/workspace - the session's workspace: watching (off, on, paused and why), its linked keys (masked, with their links' ids), where its history begins, its time zone, and how much it keeps.
// DELETE /api/workspace {confirm: "delete"} - deletes everything kept for it and ends the session: 204.
import { sameSiteOnly } from "@/lib/server/csrf";
import { deleteWorkspace, readWorkspace } from "@/lib/server/workspace-routes";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(readWorkspace);
export const DELETE = sameSiteOnly(deleteWorkspace);
