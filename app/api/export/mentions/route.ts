// GET /api/export/mentions - every mention matching the filters (platform, sentiment, from, to) as a CSV or JSON download (format=csv|json).
import { exportMentions } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = exportMentions;
