// GET /api/export/mentions - every mention matching the filters (platform, sentiment, from, to) as a CSV or JSON download (format=csv|csv-excel|json; lib/exports/handlers.ts).
// HEAD is a 405: it would start an export whose body nobody reads. The filters are read by the handler, which records a refusal under the export's id for the tray.
import { EXPORT_HEAD_REFUSED, EXPORT_SUBJECT, handleExport } from "@/lib/exports/handlers";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", subject: EXPORT_SUBJECT.mentions, headRefused: EXPORT_HEAD_REFUSED }, ({ session }, req) =>
  handleExport(session, req, "mentions"),
);
