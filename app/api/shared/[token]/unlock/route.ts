// POST /api/shared/{token}/unlock - opens a share link with its password {password}: 204 and the link's cookie; 401; 429 (lib/shares/routes.ts).
import { route } from "@/lib/server/route";
import { SHARE_TOKEN, unlockShare } from "@/lib/shares/routes";
import { UNLOCK_EXAMPLE, unlockBody } from "@/lib/shares/schema";

export const dynamic = "force-dynamic";
export const POST = route(
  { access: "public", write: true, pathParams: { token: SHARE_TOKEN }, body: unlockBody, bodyExample: UNLOCK_EXAMPLE, subject: "opening the link" },
  unlockShare,
);
