// POST /api/alerts/destinations/{id}/test - sends a test message there now (lib/alerts/routes.ts).
import { testDestination } from "@/lib/alerts/routes";
import { DESTINATION_ID } from "@/lib/alerts/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route({ access: "session", write: true, store: true, pathParams: { id: DESTINATION_ID }, subject: "sending a test" }, testDestination);
