// GET /api/insights/trend?from&to&tz&bucket&compare… - visitors, AI visitors and conversions per day or week of the range, with the previous period (lib/insights/trend.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/trend"]);
