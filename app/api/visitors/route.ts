// GET /api/visitors - one page of the workspace's visitors (source, intent, converted, from, to, limit, offset).
import { listVisitors } from "@/lib/server/data-routes";

export const dynamic = "force-dynamic";
export const GET = listVisitors;
