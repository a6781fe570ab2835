// GET /api/workspace - the session's workspace: watching (off, on, paused and why), its linked keys (masked), where its history begins, its time zone.
import { sameSiteOnly } from "@/lib/server/csrf";
import { readWorkspace } from "@/lib/server/workspace-routes";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(readWorkspace);
