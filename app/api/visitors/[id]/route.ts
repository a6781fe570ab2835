// GET /api/visitors/{id} - all fields of one visitor (id checked against vis_<id> before any upstream call).
import { getVisitor } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = getVisitor;
