// DELETE /api/workspace/keys/{id} - unlinks a key of the session's workspace other than its own: 204, that key's sessions end (lib/workspaces/routes.ts).
import { route } from "@/lib/server/route";
import { unlinkKey } from "@/lib/workspaces/routes";
import { LINK_ID } from "@/lib/workspaces/schema";

export const dynamic = "force-dynamic";
export const DELETE = route({ access: "session", write: true, store: true, pathParams: { id: LINK_ID }, subject: "unlinking a key" }, unlinkKey);
