// A shared page read by 20 viewers at once: /platforms shared (the last 30 days), every read its page
// makes asked by 20 browsers without a session at the same moment, through the production entry
// (`npm start` of the build) on a sandbox process; first cold (nothing read yet), then again (a
// reload). Prints the upstream calls each round cost and the p50/p95 of a viewer's whole page (all its
// reads) and of one read. Goals: one reading per link and range (the reload costs no upstream call),
// p95 under 1 s warm.
import { deriveDemoKey } from "../sandbox/keys";
import { apiClient } from "../testing/production";
import { benchBuild, processSandbox, signIn, startProductionServer } from "./support";

export const name = "shares: a shared page's first load and reload by 20 viewers at once (upstream calls, p50/p95)";

const VIEWERS = 20;
const GOAL_P95_WARM_MS = 1000;

/** The Data API calls the sandbox has answered (its own admin requests, such as this count, left out). */
const upstreamCalls = async (sandbox: { stats(): Promise<{ byPath: Record<string, number> }> }) =>
  Object.values((await sandbox.stats()).byPath).reduce((a, b) => a + b, 0);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

export async function run(): Promise<void> {
  if (!benchBuild()) return;
  const sandbox = await processSandbox(20_000, new Date().toISOString());
  const server = await startProductionServer({ DATA_API_BASE_URL: sandbox.baseUrl });
  try {
    const api = apiClient(server.base, await signIn(server.base, { apiKey: deriveDemoKey("pro", "benchshares") }));
    if ((await api.call("PUT", "/api/workspace/watch")).status !== 200) throw new Error("watching could not be turned on");
    const made = await api.call<{ url: string }>("POST", "/api/shares", { body: { name: "Bench", path: "/platforms", query: { range: "30d" } } });
    if (made.status !== 201) throw new Error(`sharing failed: ${made.status}`);
    const token = made.body.url.split("/s/")[1]!;
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    const range = `from=${day(29)}&to=${day(0)}&tz=UTC`;
    // What /platforms asks, as its widgets ask it.
    const reads = [
      `/insights/platforms?${range}&compare=previous`,
      `/insights/sentiment?${range}`,
      `/insights/competitors?${range}`,
      `/intelligence/score`,
      `/intelligence/ranking`,
      `/history/score?${range}`,
      `/annotations?${range}`,
    ];

    const round = async (label: string) => {
      const before = await upstreamCalls(sandbox);
      const pages: number[] = [];
      const each: number[] = [];
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: VIEWERS }, async () => {
          const t0 = performance.now();
          await Promise.all(
            reads.map(async (read) => {
              const t = performance.now();
              const res = await fetch(`${server.base}/api/shared/${token}${read}`);
              await res.arrayBuffer();
              each.push(performance.now() - t);
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            }),
          );
          pages.push(performance.now() - t0);
        }),
      );
      const upstream = (await upstreamCalls(sandbox)) - before;
      const answered = [...statuses].map(([s, n]) => `${n}×${s}`).join(", ");
      console.log(
        `${label}: ${VIEWERS} viewers × ${reads.length} reads (${answered}); upstream calls ${upstream}; a viewer's page p50 ${pct(pages, 50).toFixed(0)} ms, p95 ${pct(pages, 95).toFixed(0)} ms; one read p50 ${pct(each, 50).toFixed(0)} ms, p95 ${pct(each, 95).toFixed(0)} ms`,
      );
      return { upstream, p95: pct(pages, 95) };
    };

    await round("first load (cold)");
    const warm = await round("reload (warm)   ");
    console.log(
      `goals: one reading per link and range (reload upstream calls ${warm.upstream}: ${warm.upstream === 0 ? "met" : "NOT met"}); p95 under ${GOAL_P95_WARM_MS} ms warm (${warm.p95.toFixed(0)} ms: ${warm.p95 < GOAL_P95_WARM_MS ? "met" : "NOT met"})`,
    );
  } finally {
    await server.stop();
    await sandbox.close();
  }
}
