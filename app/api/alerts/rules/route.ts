// GET /api/alerts/rules - the workspace's alert rules and their state; POST - adds one (lib/alerts/routes.ts).
import { createRule, listRules } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(listRules);
export const POST = sameSiteOnly(createRule);
