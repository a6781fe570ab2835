// GET /api/export/visitors and GET /api/export/mentions as plain `(req) => Promise<Response>`
// functions (mounted by thin files under app/api/export). Session (401), then the same filters as
// the page plus `format` (400 naming the parameter, before any upstream call), then the first
// upstream page (its failure answered in the shared error shape and status mapping), then the
// streamed file. Failures after streaming began are logged here (masked key only) and fail the
// download (see stream.ts).
import "server-only";
import { mentionExportParams, visitorExportParams } from "@/lib/data-api/params";
import { queryOf, requireSession } from "../data-routes";
import { withErrors } from "../http";
import { dataApiForKey, maskKey, rateBudgetForKey } from "../upstream";
import { exportResponse, type ExportRequest } from "./export-response";
import { minSecondsForRequests } from "./rate-bound";
import type { ExportResource } from "./columns";

/**
 * Seconds the remaining pages take under the key's learned plan, counting what the key already
 * spent this minute (interactive use, other exports). The UI switches to the observed rate later.
 */
function estimatorFor(apiKey: string): (remainingPages: number) => number | undefined {
  return (remainingPages) => {
    const budget = rateBudgetForKey(apiKey);
    if (!budget.learned) return undefined;
    const spent = Math.min(budget.sentLastMinute, budget.perMinute);
    return minSecondsForRequests(spent + remainingPages, budget) - minSecondsForRequests(spent, budget);
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const extra = error as Error & { code?: unknown; status?: unknown; requestId?: unknown };
    const parts = [typeof extra.status === "number" ? String(extra.status) : "", typeof extra.code === "string" ? extra.code : error.name];
    const id = typeof extra.requestId === "string" ? ` (request ${extra.requestId})` : "";
    return `${parts.filter(Boolean).join(" ")}: ${error.message}${id}`;
  }
  return "non-error thrown";
}

async function handleExport(req: Request, resource: ExportResource): Promise<Response> {
  const session = await requireSession(req);
  const request: ExportRequest =
    resource === "visitors"
      ? { resource, params: queryOf(req, visitorExportParams) }
      : { resource, params: queryOf(req, mentionExportParams) };
  const keyHint = maskKey(session.apiKey);
  return exportResponse(dataApiForKey(session.apiKey), request, {
    signal: req.signal,
    estimateSeconds: estimatorFor(session.apiKey),
    onError: (error, info) => {
      // The key itself never reaches a log: only its masked hint.
      console.error(`[export] ${info.resource} for ${keyHint} failed after ${info.rowsSent} of ${info.total} rows; download aborted. ${describeError(error)}`);
    },
  });
}

export const exportVisitors = withErrors("the visitor export", (req: Request) => handleExport(req, "visitors"));
export const exportMentions = withErrors("the mention export", (req: Request) => handleExport(req, "mentions"));
