// The /api routes as the source declares them (lib/server/route-files.ts: every route file under
// app/api and the methods it exports), for tests that hold every route to a rule: a route added later
// is walked without touching a test.
export { apiRouteFiles, HTTP_METHODS, type HttpMethod } from "@/lib/server/route-files";
