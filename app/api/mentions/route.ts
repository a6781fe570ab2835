// GET /api/mentions?platform&sentiment&from&to&query&competitor&limit&offset - the mention feed, filtered here by `query` and `competitor` when asked (lib/lists/mentions.ts).
import { listRoutes } from "@/lib/lists/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(listRoutes["/mentions"]);
