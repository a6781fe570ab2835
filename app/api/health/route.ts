// GET /api/health - liveness for process managers, load balancers and the test harness; touches no
// upstream (HEAD, answered by Next with GET's headers, is as cheap). Says which instance answered and
// whether it shares through Redis: `degraded` while Redis is away (the instance still serves, alone,
// so this stays a 200).
import { randomBytes } from "node:crypto";
import { sameSiteOnly } from "@/lib/server/csrf";
import { redisState } from "@/lib/server/redis/connection";

export const dynamic = "force-dynamic";

// Random per process: tells instances apart behind a load balancer without publishing host names or pids.
const instance = randomBytes(4).toString("hex");

export const GET = sameSiteOnly(async () => {
  const redis = await redisState();
  return Response.json({ ok: true, instance, redis, ...(redis === "unavailable" ? { degraded: true } : {}) });
});
