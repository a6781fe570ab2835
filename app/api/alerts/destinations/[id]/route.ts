// DELETE /api/alerts/destinations/{id} - deletes a destination with its rules (lib/alerts/routes.ts).
import { deleteDestination } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const DELETE = sameSiteOnly(deleteDestination);
