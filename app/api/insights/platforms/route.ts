// GET /api/insights/platforms?from&to&tz&compare… - per AI platform: mentions, sentiment, position, visitors, conversions, with the previous period (lib/insights/platforms.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/platforms"]);
