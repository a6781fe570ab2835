// GET /api/history/score?from&to&tz - the score's snapshots kept for the session's workspace over the range (lib/history/routes.ts).
import { historyRoutes } from "@/lib/history/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(historyRoutes["/history/score"]);
