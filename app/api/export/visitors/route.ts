// GET /api/export/visitors - every visitor matching the filters (source, intent, converted, from, to) as a CSV or JSON download (format=csv|csv-excel|json).
import { sameSiteOnly } from "@/lib/server/csrf";
import { exportVisitors } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(exportVisitors);
