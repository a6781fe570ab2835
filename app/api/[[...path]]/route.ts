// Any /api path no route file serves, with any method: the JSON 404 in the shared error shape (never
// Next's HTML page). Every route is a file of its own under app/api (lib/server/route.ts); a route file
// takes precedence over this catch-all.
import { noSuchRoute } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = noSuchRoute;
export const POST = noSuchRoute;
export const PUT = noSuchRoute;
export const PATCH = noSuchRoute;
export const DELETE = noSuchRoute;
export const OPTIONS = noSuchRoute;
