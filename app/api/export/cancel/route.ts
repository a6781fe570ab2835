// POST /api/export/cancel?id=exp_… - stops a running export of this session's key: its upstream paging ends within a page and its download fails, so nothing complete is saved (lib/exports/handlers.ts).
import { cancelExport } from "@/lib/exports/handlers";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route({ access: "session", write: true, subject: "the export" }, cancelExport);
