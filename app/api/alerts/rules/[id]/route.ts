// DELETE /api/alerts/rules/{id} - deletes a rule (lib/alerts/routes.ts).
import { deleteRule } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const DELETE = sameSiteOnly(deleteRule);
