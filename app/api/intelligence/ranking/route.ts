// GET /api/intelligence/ranking - the workspace ranked against tracked competitors.
import { getRanking } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getRanking;
