// GET /api/export/mentions - every mention matching the filters (platform, sentiment, from, to) as a CSV or JSON download (format=csv|csv-excel|json).
import { sameSiteOnly } from "@/lib/server/csrf";
import { exportMentions } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(exportMentions);
