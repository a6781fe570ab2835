// GET /api/alerts/rules/preview?kind&threshold&cooldown_minutes - how often a rule would have fired in the last 30 days (lib/alerts/routes.ts).
import { previewRuleRoute } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(previewRuleRoute);
