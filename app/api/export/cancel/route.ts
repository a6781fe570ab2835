// POST /api/export/cancel?id=exp_… - stops a running export of this session's key: its upstream paging ends within a page and its download fails, so nothing complete is saved.
import { sameSiteOnly } from "@/lib/server/csrf";
import { cancelExport } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const POST = sameSiteOnly(cancelExport);
