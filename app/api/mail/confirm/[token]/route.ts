// POST /api/mail/confirm/{token} - confirms an e-mail destination (the confirmation page's button): 200; 404 (lib/alerts/mail-routes.ts).
import { confirmMailRoute, MAIL_TOKEN } from "@/lib/alerts/mail-routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route({ access: "public", write: true, pathParams: { token: MAIL_TOKEN }, subject: "confirming the address" }, confirmMailRoute);
