// POST /api/workspace/keys {apiKey} - links another key of the session's workspace (it must work upstream and open the same workspace; one that had a workspace of its own here brings it along): 201 {id, key_hint, linked_at, merged} (lib/workspaces/routes.ts).
import { route } from "@/lib/server/route";
import { linkKey } from "@/lib/workspaces/routes";
import { LINKED_KEY_EXAMPLE, linkedKeyBody } from "@/lib/workspaces/schema";

export const dynamic = "force-dynamic";
export const POST = route(
  { access: "session", write: true, store: true, keyAttempts: "linking", body: linkedKeyBody, bodyExample: LINKED_KEY_EXAMPLE, subject: "linking a key" },
  linkKey,
);
