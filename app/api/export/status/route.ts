// GET /api/export/status?id=exp_… - progress and outcome of an export of this session's key (rows written, total, bytes, state, rate-limit wait, estimate, rows that could not be read, error); without id, the session's recent exports (the exports tray).
import { sameSiteOnly } from "@/lib/server/csrf";
import { exportStatus } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(exportStatus);
