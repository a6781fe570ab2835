// GET /api/insights/sources?from&to&tz&compare… - visitors, conversions and rate per source, with the previous period (lib/insights/sources.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/sources"]);
