// GET /api/visitors/{id}/timeline - a visitor's activity, oldest first, as the Data API answers it (the registry's record: lib/data-api/endpoints.ts).
import { passThrough } from "@/lib/server/pass-through";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(passThrough("/visitors/:id/timeline"));
