// GET /api/alerts/digest/preview - the weekly digest as "Send now" sends it: subject, text and HTML (lib/alerts/routes.ts).
import { previewDigest } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(previewDigest);
