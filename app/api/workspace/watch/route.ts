// PUT /api/workspace/watch - watching on (the session's key kept sealed for the history collector); DELETE - watching off (the sealed key deleted at once).
import { sameSiteOnly } from "@/lib/server/csrf";
import { startWatching, stopWatching } from "@/lib/server/workspace-routes";

export const dynamic = "force-dynamic";
export const PUT = sameSiteOnly(startWatching);
export const DELETE = sameSiteOnly(stopWatching);
