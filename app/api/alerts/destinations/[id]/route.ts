// DELETE /api/alerts/destinations/{id} - deletes a destination with its rules (lib/alerts/routes.ts).
import { deleteDestination } from "@/lib/alerts/routes";
import { DESTINATION_ID } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const DELETE = route(
  { access: "session", write: true, store: true, pathParams: { id: DESTINATION_ID }, subject: "deleting the destination" },
  deleteDestination,
);
