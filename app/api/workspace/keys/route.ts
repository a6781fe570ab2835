// POST /api/workspace/keys {apiKey} - links another key of the session's workspace (it must work upstream and open the same workspace): 201 {key_hint, linked_at}.
import { sameSiteOnly } from "@/lib/server/csrf";
import { linkKey } from "@/lib/server/workspace-routes";

export const dynamic = "force-dynamic";
export const POST = sameSiteOnly(linkKey);
