// The history routes' query: the insights' range rules (lib/insights/schema.ts) without buckets,
// every snapshot being its own point. The notes of a range are asked for the same way.
import { z } from "zod";
import { calendarDayNumber, timeZoneParam } from "@/lib/data-api/params";
import { calendarDateParam, insightsRangeProblem } from "@/lib/insights/schema";

/** GET /api/history/*?from&to&tz and GET /api/annotations?from&to&tz */
export const historyParams = z
  .object({
    from: calendarDateParam("from").optional(),
    to: calendarDateParam("to").optional(),
    tz: timeZoneParam.default("UTC"),
  })
  .superRefine((v, ctx) => {
    if (!v.from || !v.to) return;
    const problem = insightsRangeProblem(calendarDayNumber(v.from)!, calendarDayNumber(v.to)!);
    if (problem) ctx.addIssue({ code: "custom", path: ["from"], message: problem });
  });
export type HistoryParams = z.output<typeof historyParams>;
