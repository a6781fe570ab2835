// GET /api/workspace/activity: the session's workspace's activity list (lib/store/activity.ts), newest
// first: when, which key (its hint) and what changed, in the store's one scope (the key rechecked
// upstream like every route of the store).
import "server-only";
import { json, withErrors } from "@/lib/server/http";
import { storeScope } from "@/lib/server/store-scope";
import type { ActivityJson } from "./actions";

/** GET /api/workspace/activity */
export const listActivity = withErrors("the activity", async (req: Request) => {
  const { store, workspace } = await storeScope(req, { write: false });
  const data: ActivityJson[] = (await store.activity.list(workspace)).map((r) => ({ at: new Date(r.at).toISOString(), key_hint: r.keyHint, action: r.action, subject: r.subject }));
  return json({ data });
});
