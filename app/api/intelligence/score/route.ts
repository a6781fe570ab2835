// GET /api/intelligence/score - the AI Positioning Score as the Data API answers it, each read kept as the workspace's history (lib/history/routes.ts).
import { historyRoutes } from "@/lib/history/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(historyRoutes["/intelligence/score"]);
