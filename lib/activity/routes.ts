// GET /api/workspace/activity (mounted by its route file, in the store's one scope: the key rechecked
// upstream like every route of the store): the session's workspace's activity list
// (lib/store/activity.ts), newest first: when, which key (its hint) and what changed.
import "server-only";
import type { StoreScope } from "@/lib/server/route-types";
import type { ActivityJson } from "./actions";

/** GET /api/workspace/activity */
export async function listActivity({ scope: { store, workspace } }: { scope: StoreScope }): Promise<{ data: ActivityJson[] }> {
  const data: ActivityJson[] = (await store.activity.list(workspace)).map((r) => ({
    at: new Date(r.at).toISOString(),
    key_hint: r.keyHint,
    action: r.action,
    subject: r.subject,
  }));
  return { data };
}
