// PATCH /api/alerts/rules/{id} - changes a rule's threshold, destination or cooldown; DELETE - deletes it (lib/alerts/routes.ts).
import { deleteRule, updateRule } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const PATCH = sameSiteOnly(updateRule);
export const DELETE = sameSiteOnly(deleteRule);
