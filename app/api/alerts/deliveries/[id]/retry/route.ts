// POST /api/alerts/deliveries/{id}/retry - tries a failed delivery again now (lib/alerts/routes.ts).
import { retryDelivery } from "@/lib/alerts/routes";
import { DELIVERY_ID } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route({ access: "session", write: true, store: true, pathParams: { id: DELIVERY_ID }, subject: "retrying the delivery" }, retryDelivery);
