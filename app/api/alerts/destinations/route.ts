// GET /api/alerts/destinations - where alerts go; POST - adds one {kind, name, url} (lib/alerts/routes.ts).
import { createDestination, listDestinations } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(listDestinations);
export const POST = sameSiteOnly(createDestination);
