// Any /api path no route handles, with any method: the JSON 404 in the shared error shape (not
// Next's HTML not-found page), so API clients always get JSON.
import { apiNotFound } from "@/lib/server/http";

export const dynamic = "force-dynamic";
export const GET = apiNotFound;
export const HEAD = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
