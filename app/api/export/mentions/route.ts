// GET /api/export/mentions - every mention matching the filters (platform, sentiment, from, to) as a CSV or JSON download (format=csv|csv-excel|json).
// HEAD is a 405: it would start an export whose body nobody reads.
import { sameSiteOnly } from "@/lib/server/csrf";
import { exportHead, exportMentions } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(exportMentions);
export const HEAD = sameSiteOnly(exportHead);
