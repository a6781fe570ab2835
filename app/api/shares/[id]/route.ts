// PATCH /api/shares/{id} - changes a share link {name?, password?, expires_at?}; DELETE - revokes it (lib/shares/routes.ts).
import { route } from "@/lib/server/route";
import { changeShare, revokeShare } from "@/lib/shares/routes";
import { CHANGED_SHARE_EXAMPLE, changedShare, SHARE_ID } from "@/lib/shares/schema";

export const dynamic = "force-dynamic";
export const PATCH = route(
  {
    access: "session",
    write: true,
    store: true,
    pathParams: { id: SHARE_ID },
    body: changedShare,
    bodyExample: CHANGED_SHARE_EXAMPLE,
    subject: "changing the share link",
  },
  changeShare,
);
export const DELETE = route({ access: "session", write: true, store: true, pathParams: { id: SHARE_ID }, subject: "revoking the share link" }, revokeShare);
