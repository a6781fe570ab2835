// GET /api/export/visitors - every visitor matching the filters (source, intent, converted, from, to) as a CSV or JSON download (format=csv|csv-excel|json).
// HEAD is a 405: it would start an export whose body nobody reads.
import { sameSiteOnly } from "@/lib/server/csrf";
import { exportHead, exportVisitors } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(exportVisitors);
export const HEAD = sameSiteOnly(exportHead);
