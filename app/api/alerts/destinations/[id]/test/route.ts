// POST /api/alerts/destinations/{id}/test - sends a test message there now (lib/alerts/routes.ts).
import { testDestination } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const POST = sameSiteOnly(testDestination);
