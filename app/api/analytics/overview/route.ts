// GET /api/analytics/overview - visitors, pageviews, conversions and AI traffic for a period (24h, 7d, 30d, 90d).
import { getOverview } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getOverview;
