// GET /api/insights/countries?from&to&tz&country&compare… - visitors and conversions per country (and a country's cities), with the previous period (lib/insights/countries.ts).
import { insightRoutes } from "@/lib/insights/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(insightRoutes["/insights/countries"]);
