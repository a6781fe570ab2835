// GET /api/{route} - every route of the BFF's table (lib/server/routes.ts: the Data API endpoints of
// lib/data-api/endpoints.ts, plus BFF-only routes), validated there; any other /api path, with any
// method, is the JSON 404 in the shared error shape (never Next's HTML page), and another method on a
// route of the table is a 405 (HEAD too: it would spend upstream calls on an answer nobody reads).
// Routes with their own folder (session, export, health) take precedence. Every handler is mounted
// through sameSiteOnly (cross-site requests refused with 403).
import { sameSiteOnly } from "@/lib/server/csrf";
import { handleApiGet, handleApiOther } from "@/lib/server/routes";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(handleApiGet);
export const HEAD = sameSiteOnly(handleApiOther);
export const POST = sameSiteOnly(handleApiOther);
export const PUT = sameSiteOnly(handleApiOther);
export const PATCH = sameSiteOnly(handleApiOther);
export const DELETE = sameSiteOnly(handleApiOther);
export const OPTIONS = sameSiteOnly(handleApiOther);
