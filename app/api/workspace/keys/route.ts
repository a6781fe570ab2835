// POST /api/workspace/keys {apiKey} - links another key of the session's workspace (it must work upstream and open the same workspace; one that had a workspace of its own here brings it along): 201 {id, key_hint, linked_at, merged}.
import { sameSiteOnly } from "@/lib/server/csrf";
import { linkKey } from "@/lib/server/workspace-routes";

export const dynamic = "force-dynamic";
export const POST = sameSiteOnly(linkKey);
