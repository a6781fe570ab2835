// GET /api/analytics/traffic - visitors by traffic source for a period.
import { getTraffic } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getTraffic;
