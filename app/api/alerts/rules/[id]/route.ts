// PATCH /api/alerts/rules/{id} - changes a rule's threshold, destination or cooldown; DELETE - deletes it (lib/alerts/routes.ts).
import { deleteRule, updateRule } from "@/lib/alerts/routes";
import { RULE_CHANGES_EXAMPLE, RULE_ID, ruleChanges } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const PATCH = route(
  {
    access: "session",
    write: true,
    store: true,
    pathParams: { id: RULE_ID },
    body: ruleChanges,
    bodyExample: RULE_CHANGES_EXAMPLE,
    subject: "changing the rule",
  },
  updateRule,
);
export const DELETE = route({ access: "session", write: true, store: true, pathParams: { id: RULE_ID }, subject: "deleting the rule" }, deleteRule);
