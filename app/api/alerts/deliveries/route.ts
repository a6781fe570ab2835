// GET /api/alerts/deliveries?limit - every delivery attempt, newest first (lib/alerts/routes.ts).
import { listDeliveries } from "@/lib/alerts/routes";
import { deliveriesQuery } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, query: deliveriesQuery, subject: "the deliveries" }, listDeliveries);
