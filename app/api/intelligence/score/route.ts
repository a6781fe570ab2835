// GET /api/intelligence/score - the AI Positioning Score with its trend and breakdown.
import { getScore } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getScore;
