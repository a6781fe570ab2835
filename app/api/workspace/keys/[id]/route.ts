// DELETE /api/workspace/keys/{id} - unlinks a key of the session's workspace other than its own: 204, that key's sessions end (lib/server/workspace-routes.ts).
import { sameSiteOnly } from "@/lib/server/csrf";
import { unlinkKey } from "@/lib/server/workspace-routes";

export const dynamic = "force-dynamic";
export const DELETE = sameSiteOnly(unlinkKey);
