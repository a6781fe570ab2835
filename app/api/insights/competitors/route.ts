// GET /api/insights/competitors?from&to&tz - the competitors named in the range's mentions, most mentioned first (lib/insights/competitors.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/competitors"]);
