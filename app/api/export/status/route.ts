// GET /api/export/status?id=exp_… - progress and outcome of an export of this session's key (rows written, total, bytes, state, rate-limit wait, estimate, rows that could not be read, error); without id, the session's recent exports (the exports tray; lib/exports/handlers.ts).
import { exportStatus } from "@/lib/exports/handlers";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", subject: "the export status" }, exportStatus);
