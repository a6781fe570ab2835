// PUT /api/workspace/watch - watching on (the session's key kept sealed for the history collector); DELETE - watching off (the sealed key deleted at once; lib/workspaces/routes.ts).
import { route } from "@/lib/server/route";
import { startWatching, stopWatching } from "@/lib/workspaces/routes";

export const dynamic = "force-dynamic";
export const PUT = route({ access: "session", write: true, store: true, subject: "watching" }, startWatching);
export const DELETE = route({ access: "session", write: true, store: true, subject: "watching" }, stopWatching);
