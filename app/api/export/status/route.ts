// GET /api/export/status?id=exp_… - progress and outcome of an export of this session's key (rows written, total, rows that could not be read, error).
import { exportStatus } from "@/lib/server/export/handlers";

export const dynamic = "force-dynamic";
export const GET = exportStatus;
