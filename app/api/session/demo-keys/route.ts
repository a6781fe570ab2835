// GET /api/session/demo-keys - the sandbox's demo keys on offer for one-click sign-in (ids only, never key values).
import { sameSiteOnly } from "@/lib/server/csrf";
import { listDemoKeys } from "@/lib/server/session-routes";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(listDemoKeys);
