// GET /api/visitors/{id}/timeline - the complete activity timeline of one visitor, oldest first.
import { getVisitorTimeline } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getVisitorTimeline;
