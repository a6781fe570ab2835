// GET /api/mentions - one page of AI mentions of the brand (platform, sentiment, from, to, limit, offset).
import { listMentions } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = listMentions;
