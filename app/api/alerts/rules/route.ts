// GET /api/alerts/rules - the workspace's alert rules and their state; POST - adds one (lib/alerts/routes.ts).
import { createRule, listRules } from "@/lib/alerts/routes";
import { NEW_RULE_EXAMPLE, newRule } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the alert rules" }, listRules);
export const POST = route(
  { access: "session", write: true, store: true, body: newRule, bodyExample: NEW_RULE_EXAMPLE, subject: "adding the rule" },
  createRule,
);
