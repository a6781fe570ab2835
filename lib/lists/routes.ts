// The two lists the dashboard also filters itself, each in its endpoint's place (/api/visitors with
// `source=ai`, /api/mentions with `query` and `competitor`): mounted by their route files and read
// in-process by server components (lib/queries/server-api.ts). Their schemas are the pages', and what is
// sent upstream is the endpoint's own query only.
import "server-only";
import { mentionsRoute } from "./mentions";
import { visitorsRoute } from "./visitors";

export const listRoutes = {
  "/visitors": visitorsRoute,
  "/mentions": mentionsRoute,
};
