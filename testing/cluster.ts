// Several dashboard instances on one Data API, as a load balancer would see them: the sandbox in its
// own process, a real redis-server on loopback (testing/redis.ts), and N production
// entries (`npm start`, the build in BENCH_DIST_DIR) on free loopback ports, all with one session
// secret (a cookie sealed by one instance opens on the others) and REDIS_URL. Used by the
// several-instances integration test and by the `instances` bench; everything it starts it stops.
import path from "node:path";
import { distDir, hasBuild, startProductionServer, type ProductionServer } from "./production";
import { startTestRedis, type TestRedis } from "./redis";
import { processSandbox, type SandboxProcess } from "./sandbox-process";

/**
 * The sandbox's "now": the real time when this module was loaded, one instant for the cluster's
 * sandbox and any reference sandbox a test starts beside it (the same data), and the clock the
 * production instances read too. A pinned date in the past left the instances' "today" outside the
 * sandbox's rows (and the alert rules' window outside its history) as the calendar moved on.
 */
export const CLUSTER_NOW = new Date().toISOString();

export type Cluster = {
  sandbox: SandboxProcess;
  /** Absent when started with `redis: false` (each instance on its own, the default without REDIS_URL). */
  redis?: TestRedis;
  instances: ProductionServer[];
  stop(): Promise<void>;
};

export async function startCluster(options: { instances: number; redis?: boolean; visitors?: number; env?: Record<string, string> }): Promise<Cluster> {
  if (!hasBuild()) throw new Error(`No build in ${distDir()}: run \`npx next build\` first (or set BENCH_DIST_DIR).`);
  const sandbox = await processSandbox(options.visitors ?? 20_000, CLUSTER_NOW);
  let redis: TestRedis | undefined;
  const instances: ProductionServer[] = [];
  const stop = async () => {
    for (const instance of instances) instance.stop();
    await redis?.stop();
    await sandbox.close();
  };
  try {
    if (options.redis !== false) redis = await startTestRedis();
    const env = {
      DATA_API_BASE_URL: sandbox.baseUrl,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...options.env,
    };
    // One at a time: two Next servers preparing at once on two cores take longer than in turn.
    // CLUSTER_LOG_DIR keeps each instance's output (instance-<n>.log) for a run to be read afterwards.
    const logDir = process.env.CLUSTER_LOG_DIR;
    for (let i = 0; i < options.instances; i++) {
      instances.push(await startProductionServer(env, logDir ? { logFile: path.join(logDir, `instance-${i}.log`) } : {}));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { sandbox, ...(redis ? { redis } : {}), instances, stop };
}
