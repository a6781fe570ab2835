// GET /api/workspace/activity - who changed what in the session's workspace (watching, keys, destinations, rules, the digest), newest first, with the key hint that made each change (lib/activity/routes.ts).
import { listActivity } from "@/lib/activity/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(listActivity);
