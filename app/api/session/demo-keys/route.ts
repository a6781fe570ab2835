// GET /api/session/demo-keys - the sandbox's demo keys on offer for one-click sign-in (ids only, never key values; lib/server/session-routes.ts).
import { route } from "@/lib/server/route";
import { listDemoKeys } from "@/lib/server/session-routes";

export const dynamic = "force-dynamic";
export const GET = route({ access: "public", subject: "the demo keys" }, listDemoKeys);
