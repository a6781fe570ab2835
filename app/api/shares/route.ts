// GET /api/shares - the workspace's share links, newest first; POST - shares a page {name, path, query, password?, expires_at?} (lib/shares/routes.ts).
import { route } from "@/lib/server/route";
import { createShare, listShares } from "@/lib/shares/routes";
import { NEW_SHARE_EXAMPLE, newShare } from "@/lib/shares/schema";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the share links" }, listShares);
export const POST = route(
  { access: "session", write: true, store: true, body: newShare, bodyExample: NEW_SHARE_EXAMPLE, subject: "sharing the page" },
  createShare,
);
