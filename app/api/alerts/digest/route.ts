// GET /api/alerts/digest - where the weekly digest goes and what its links open; PUT {destination_id | null, share_id?, time_zone?} - sets it (lib/alerts/routes.ts).
import { getDigest, putDigest } from "@/lib/alerts/routes";
import { DIGEST_SETTING_EXAMPLE, digestSetting } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the weekly digest" }, getDigest);
export const PUT = route(
  { access: "session", write: true, store: true, body: digestSetting, bodyExample: DIGEST_SETTING_EXAMPLE, subject: "setting the weekly digest" },
  putDigest,
);
