// GET /api/alerts/digest/preview - the weekly digest as "Send now" sends it: subject, text and HTML (lib/alerts/routes.ts).
import { previewDigest } from "@/lib/alerts/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the digest's preview" }, previewDigest);
