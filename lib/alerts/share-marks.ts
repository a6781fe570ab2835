// A share link's token is never kept in clear (lib/store/shares.ts keeps it sealed), and an alert's
// event is kept as made until it is sent, and for a while after. So a digest whose links open a share
// link is made with a mark where the token goes (`~share.{id}~`), and the sender puts the token in
// just before it sends (`resolveShareMarks`), from the sealed one; a link revoked or expired by then
// becomes `/s/expired`, which opens the one "does not exist or has expired" page. The preview, read by
// a member who may see the token, is made with the token itself.
import "server-only";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";

const MARK = /~share\.(shr_[A-Za-z0-9_-]{1,64})~/g;

/** The mark that stands for the token of share `id` in a kept event. */
export const shareMark = (id: string): string => `~share.${id}~`;

/** What stands in a sent link for a share link that no longer opens (never a token's shape). */
export const GONE_SHARE_TOKEN = "expired";

/**
 * `body` with every share mark replaced by its link's token (or GONE_SHARE_TOKEN when it no longer
 * opens: revoked, expired, another workspace's, or sealed under no secret this server has); `body`
 * itself when it has none.
 */
export async function resolveShareMarks<T>(store: Store, workspace: WorkspaceId, body: T, now: number): Promise<T> {
  const json = JSON.stringify(body);
  const ids = new Set([...json.matchAll(MARK)].map((m) => m[1]!));
  if (ids.size === 0) return body;
  const tokens = new Map<string, string>();
  for (const id of ids) {
    const share = await store.shares.share(workspace, id).catch(() => undefined);
    const open = share?.token && (share.expiresAt === null || share.expiresAt > now);
    tokens.set(id, open ? share.token! : GONE_SHARE_TOKEN);
  }
  return JSON.parse(json.replace(MARK, (_, id: string) => tokens.get(id)!)) as T;
}
