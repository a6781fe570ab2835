// GET /api/visitors?source&intent&converted&from&to&limit&offset - the visitor list, or with `source=ai` the four AI platforms' visitors as one list (lib/lists/visitors.ts).
import { listRoutes } from "@/lib/lists/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(listRoutes["/visitors"]);
