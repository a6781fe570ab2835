// GET /api/export/visitors, GET /api/export/mentions and GET /api/export/status as plain
// `(req) => Promise<Response>` functions (mounted by thin files under app/api/export). An export:
// a same-site check (a cross-site link must not spend the key's budget), the session (401), the same
// filters as the page plus `format` (400 naming the parameter, before any upstream call), then the
// first upstream page (its failure answered in the shared error shape and status mapping; an export
// over the row cap is a 422), then the streamed file. Its progress and outcome are recorded under the
// id sent in `X-Export-Id`, readable through the status route. Failures after streaming began are
// logged here (masked key only) and fail the download (see stream.ts).
import "server-only";
import { isDataApiError } from "@/lib/data-api/errors";
import { mentionExportParams, visitorExportParams } from "@/lib/data-api/params";
import { queryOf, requireSession } from "../routes";
import { getEnv } from "../env";
import { finalError, invalidParameter, json, withErrors } from "../http";
import { keyId } from "../key-id";
import { serverContext } from "../context";
import { dataApiForKey, maskKey, rateBudgetForKey } from "../upstream";
import type { ExportResource } from "./columns";
import { exportResponse, type ExportRequest } from "./export-response";
import { minSecondsForRequests } from "./rate-bound";
import {
  EXPORT_ID_PATTERN,

  FINISHED_TTL_MS,
  newExportId,
  RUNNING_TTL_MS,
  type ExportState,
  type ExportStatus,
} from "./registry";
import { ExportIntegrityError, ExportTooLargeError, type ExportProgress } from "./stream";

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

/** What the status route says about a failure: the error shape's fields, nothing else. */
function statusError(error: unknown): NonNullable<ExportStatus["error"]> {
  if (isDataApiError(error)) return { code: error.code, message: error.message, ...(error.requestId ? { request_id: error.requestId } : {}) };
  if (error instanceof ExportTooLargeError) return { code: "export_too_large", message: error.message };
  if (error instanceof ExportIntegrityError) return { code: "unexpected_response", message: error.message };
  return { code: "export_failed", message: "The export failed on the server." };
}

/**
 * Browsers say where a request comes from in Sec-Fetch-Site. An export is a GET that spends the key's
 * rate limit, so a link or image on another site must not be able to start one with the user's
 * cookie (SameSite=Lax still sends it on top-level navigations). Requests without the header do not
 * come from a browser page.
 */
function isCrossSite(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none";
}

async function handleExport(req: Request, resource: ExportResource): Promise<Response> {
  if (isCrossSite(req)) {
    throw finalError({ status: 403, code: "cross_site_rejected", message: "Exports start from this app's own pages, not from links on other sites." });
  }
  const session = await requireSession(req);
  const request: ExportRequest =
    resource === "visitors"
      ? { resource, params: queryOf(req, visitorExportParams) }
      : { resource, params: queryOf(req, mentionExportParams) };
  const keyHint = maskKey(session.apiKey);
  const owner = keyId(session.apiKey);
  const store = serverContext().stores.exportStatus;
  const id = newExportId();
  const startedAt = new Date().toISOString();
  const record = (state: ExportState, progress: ExportProgress, error?: unknown) =>
    store
      .put(
        owner,
        {
          id,
          resource,
          format: request.params.format,
          state,
          rows_written: progress.rowsWritten,
          total: progress.total,
          unreadable: { count: progress.unreadable, request_ids: progress.unreadableRequestIds },
          ...(error === undefined ? {} : { error: statusError(error) }),
          started_at: startedAt,
          updated_at: new Date().toISOString(),
        },
        state === "running" ? RUNNING_TTL_MS : FINISHED_TTL_MS,
      )
      .catch((err: unknown) => console.error(`[export] could not record the status of ${id}: ${describeError(err)}`));

  try {
    return await exportResponse(dataApiForKey(session.apiKey), request, {
      signal: req.signal,
      maxRows: getEnv().exportMaxRows,
      estimateSeconds: estimatorFor(session.apiKey),
      headers: { "X-Export-Id": id },
      onProgress: (progress) => void record("running", progress),
      onEnd: (outcome) => void record(outcome.status, outcome, outcome.error),
      onError: (error, info) => {
        // The key itself never reaches a log: only its masked hint.
        console.error(
          `[export] ${info.resource} for ${keyHint} failed after ${info.rowsWritten} of ${info.total ?? "?"} rows; download aborted. ${describeError(error)}`,
        );
      },
    });
  } catch (error) {
    if (error instanceof ExportTooLargeError) {
      throw finalError({ status: 422, code: "export_too_large", message: error.message });
    }
    if (error instanceof ExportIntegrityError) {
      throw finalError({ status: 502, code: "unexpected_response", message: error.message });
    }
    throw error;
  }
}

export const exportVisitors = withErrors("the visitor export", (req: Request) => handleExport(req, "visitors"));
export const exportMentions = withErrors("the mention export", (req: Request) => handleExport(req, "mentions"));

/** GET /api/export/status?id=exp_…: an export of this session's key, as ExportStatus. */
export const exportStatus = withErrors("the export status", async (req: Request) => {
  const session = await requireSession(req);
  const ids = new URL(req.url).searchParams.getAll("id");
  if (ids.length !== 1 || !EXPORT_ID_PATTERN.test(ids[0]!)) {
    throw invalidParameter("id", "id must be one export id as given in the X-Export-Id header (exp_ followed by 22 characters)");
  }
  const status = await serverContext().stores.exportStatus.get(keyId(session.apiKey), ids[0]!);
  if (!status) throw finalError({ status: 404, code: "not_found", message: "No export with this id for this API key (finished exports are kept for an hour)." });
  return json(status);
});
