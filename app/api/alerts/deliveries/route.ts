// GET /api/alerts/deliveries?limit - every delivery attempt, newest first (lib/alerts/routes.ts).
import { listDeliveries } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(listDeliveries);
