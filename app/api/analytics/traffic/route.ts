// GET /api/analytics/traffic?period - the Data API's traffic for one of its periods, as it answers it (the registry's record: lib/data-api/endpoints.ts).
import { passThrough } from "@/lib/server/pass-through";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(passThrough("/analytics/traffic"));
