// GET /api/insights/queries?from&to&tz&platform&never_first… - the questions put to AI platforms that mention us, with position and sentiment (lib/insights/queries.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/queries"]);
