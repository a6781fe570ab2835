// GET /api/analytics/funnel - conversion funnel stages for a period.
import { getFunnel } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getFunnel;
