// GET /api/workspace/activity - who changed what in the session's workspace (watching, keys, destinations, rules, the digest), newest first, with the key hint that made each change (lib/activity/routes.ts).
import { listActivity } from "@/lib/activity/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the activity" }, listActivity);
