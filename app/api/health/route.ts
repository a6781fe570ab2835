// GET /api/health - liveness for process managers, load balancers and the test harness; touches no
// upstream. Says which instance answered and whether it shares through Redis: `degraded` while Redis
// is away (the instance still serves, alone, so this stays a 200).
import { hostname } from "node:os";
import { redisState } from "@/lib/server/redis/connection";

export const dynamic = "force-dynamic";

const instance = `${hostname()}:${process.pid}`;

export async function GET() {
  const redis = await redisState();
  return Response.json({ ok: true, instance, redis, ...(redis === "unavailable" ? { degraded: true } : {}) });
}
