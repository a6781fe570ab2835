// GET /api/{route} - every route of the BFF's table (lib/server/routes.ts: the Data API endpoints of
// lib/data-api/endpoints.ts, plus BFF-only routes), validated there; any other /api path, with any
// method, is the JSON 404 in the shared error shape (never Next's HTML page), and another method on a
// route of the table is a 405. Routes with their own folder (session, export, health) take precedence.
import { handleApiGet, handleApiOther } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const GET = handleApiGet;
export const POST = handleApiOther;
export const PUT = handleApiOther;
export const PATCH = handleApiOther;
export const DELETE = handleApiOther;
export const OPTIONS = handleApiOther;
