// GET /api/alerts/rules/preview?kind&threshold&cooldown_minutes - how often a rule would have fired in the last 30 days (lib/alerts/routes.ts).
import { previewRuleRoute } from "@/lib/alerts/routes";
import { rulePreviewQuery } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, query: rulePreviewQuery, subject: "the rule's preview" }, previewRuleRoute);
