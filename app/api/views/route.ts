// GET /api/views - the workspace's saved views, by name; POST - saves one {name, path, query} (lib/server/view-routes.ts).
import { sameSiteOnly } from "@/lib/server/csrf";
import { createView, listViews } from "@/lib/server/view-routes";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(listViews);
export const POST = sameSiteOnly(createView);
