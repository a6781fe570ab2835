// GET /api/history/overview?from&to&tz - the overview of each Data API period as kept day by day for the session's workspace (lib/history/routes.ts).
import { historyRoutes } from "@/lib/history/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(historyRoutes["/history/overview"]);
