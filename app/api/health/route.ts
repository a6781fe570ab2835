// GET /api/health - liveness for process managers, load balancers and the test harness; touches no
// upstream (HEAD, answered by Next with GET's headers, is as cheap). Says which instance answered,
// whether it shares through Redis, and its store: the kind, the schema version and the sealed values
// (`{"kind": "embedded"|"postgres", "schema": N, "sealed_under_previous": N, "sealed_unreadable": N}`:
// how many still need SESSION_SECRET_PREVIOUS, and how many no configured secret opens; null for the
// moments after start before they are counted), or `"unavailable"` with the reason in `store_error`
// for the operator (another process holds DATA_DIR, named by its directory and pid; PostgreSQL cannot
// be reached). `degraded` while Redis or the store is away: the instance still serves what needs
// neither, so this stays a 200.
import { randomBytes } from "node:crypto";
import { serverContext } from "@/lib/server/context";
import { redisState } from "@/lib/shared-state/redis/connection";
import { route } from "@/lib/server/route";
import { storeHealth } from "@/lib/store/shared";

export const dynamic = "force-dynamic";

// Random per process: tells instances apart behind a load balancer without publishing host names or pids.
const instance = randomBytes(4).toString("hex");

export const GET = route({ access: "public", subject: "the health check" }, async () => {
  const [redis, store] = await Promise.all([redisState(), storeHealth(serverContext().store)]);
  const storeFields = "unavailable" in store ? { store: "unavailable", store_error: store.unavailable } : { store };
  const degraded = redis === "unavailable" || "unavailable" in store;
  return Response.json({ ok: true, instance, redis, ...storeFields, ...(degraded ? { degraded: true } : {}) });
});
