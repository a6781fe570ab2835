// GET /api/insights/sentiment?from&to&tz&bucket - the mentions' sentiment per day or week of the range (lib/insights/sentiment.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/sentiment"]);
