// POST /api/alerts/deliveries/{id}/retry - tries a failed delivery again now (lib/alerts/routes.ts).
import { retryDelivery } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const POST = sameSiteOnly(retryDelivery);
