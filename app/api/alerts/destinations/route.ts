// GET /api/alerts/destinations - where alerts go; POST - adds one {kind, name, url} (lib/alerts/routes.ts).
import { createDestination, listDestinations } from "@/lib/alerts/routes";
import { NEW_DESTINATION_EXAMPLE, newDestination } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the alert destinations" }, listDestinations);
export const POST = route(
  { access: "session", write: true, store: true, body: newDestination, bodyExample: NEW_DESTINATION_EXAMPLE, subject: "adding the destination" },
  createDestination,
);
