// The insights view's cost: the overview's and /platforms' insights (trend, sources, platforms,
// competitors: the last 30 days, asked at once as a page's widgets do) through the BFF's route
// handler with a session cookie, against the sandbox in its own process, cold (nothing cached)
// and warm (asked again right after). Prints the upstream calls (pages listed, figures counted),
// upstream 429s and wall time, and checks the answers against the sandbox's own counts (filtered
// lists' `meta.total` asked directly with another key), so "fast" can never mean "wrong".
// Each scenario runs in a child process: a fresh key budget and a fresh server.
import { fileURLToPath } from "node:url";
import { BENCH_SESSION_SECRET, processSandbox, runBenchChild, type SandboxProcess } from "./support";

export const name = "insights: cold and warm insights view (4 routes, 30 days) on Free and Pro at 20,000 visitors, Pro at 1,000,000";

type Scenario = { id: string; plan: "Free" | "Pro"; visitors: number; goalColdSeconds: number };

const SCENARIOS: Scenario[] = [
  { id: "free-20k", plan: "Free", visitors: 20_000, goalColdSeconds: 30 },
  { id: "pro-20k", plan: "Pro", visitors: 20_000, goalColdSeconds: 5 },
  { id: "pro-1m", plan: "Pro", visitors: 1_000_000, goalColdSeconds: 30 },
];
const WARM_GOAL_SECONDS = 1;
const ROUTES = ["trend", "sources", "platforms", "competitors"] as const;

type Load = { seconds: number; upstream: number; listedPages: number; countedFigures: number; mentionPages: number; upstream429: number };
type Result = { id: string; visitorsInWindow: number; cold: Load; warm: Load; mismatches: string[] };

// ---------------------------------------------------------------------------------------------
// Child: one scenario.

type Answers = {
  trend: { from: string; to: string; data: Array<{ visitors: number; ai_visitors: number; conversions: number }>; previous: Array<{ start: string }> };
  sources: { data: Array<{ source: string; visitors: number; conversions: number; previous: { visitors: number; conversions: number } }> };
  platforms: { data: Array<{ platform: string; mentions: number; previous: { mentions: number } }> };
  competitors: { mentions: number };
};

/** `meta.total` of a filtered list, asked straight from the sandbox. */
async function directCount(sandbox: SandboxProcess, key: string, path: string, query: Record<string, string>): Promise<number> {
  const res = await fetch(`${sandbox.baseUrl}${path}?${new URLSearchParams({ ...query, limit: "1" })}`, { headers: { Authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`direct count ${path} answered ${res.status}`);
  return ((await res.json()) as { meta: { total: number } }).meta.total;
}

/** The answers' totals against the sandbox's own counts for the same UTC days. */
async function check(sandbox: SandboxProcess, key: string, a: Answers, from: string, to: string, previousFrom: string): Promise<string[]> {
  const current = { from: `${from}T00:00:00.000Z`, to: `${to}T23:59:59.999Z` };
  const previous = { from: `${previousFrom}T00:00:00.000Z`, to: new Date(Date.parse(current.from) - 1).toISOString() };
  const out: string[] = [];
  const same = (what: string, got: number, want: number) => got !== want && out.push(`${what}: ${got} vs sandbox ${want}`);
  const sum = (rows: Array<Record<string, unknown>>, k: string) => rows.reduce((n, r) => n + (r[k] as number), 0);
  same("trend visitors", sum(a.trend.data, "visitors"), await directCount(sandbox, key, "/visitors", current));
  same("trend conversions", sum(a.trend.data, "conversions"), await directCount(sandbox, key, "/visitors", { ...current, converted: "true" }));
  for (const row of a.sources.data) {
    same(`${row.source} visitors`, row.visitors, await directCount(sandbox, key, "/visitors", { ...current, source: row.source }));
    same(`${row.source} conversions`, row.conversions, await directCount(sandbox, key, "/visitors", { ...current, source: row.source, converted: "true" }));
    same(`${row.source} previous visitors`, row.previous.visitors, await directCount(sandbox, key, "/visitors", { ...previous, source: row.source }));
  }
  const ai = a.sources.data.filter((r) => ["chatgpt", "perplexity", "claude", "gemini"].includes(r.source));
  same("trend AI visitors", sum(a.trend.data, "ai_visitors"), sum(ai, "visitors"));
  for (const row of a.platforms.data) {
    same(`${row.platform} mentions`, row.mentions, await directCount(sandbox, key, "/mentions", { ...current, platform: row.platform }));
    same(`${row.platform} previous mentions`, row.previous.mentions, await directCount(sandbox, key, "/mentions", { ...previous, platform: row.platform }));
  }
  same("competitors' mentions", a.competitors.mentions, await directCount(sandbox, key, "/mentions", current));
  return out;
}

async function runScenario(scenario: Scenario): Promise<Result> {
  const { DEMO_KEYS } = await import("../sandbox/keys");
  const sandbox = await processSandbox(scenario.visitors, new Date().toISOString());
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  const { handleApiGet } = await import("../lib/server/routes");
  const { SESSION_COOKIE, sealSession } = await import("../lib/server/session");
  const key = scenario.plan === "Pro" ? DEMO_KEYS.pro : DEMO_KEYS.free;
  const cookie = `${SESSION_COOKIE}=${await sealSession(key)}`;

  let answers: Answers | undefined;
  let seen = 0;
  async function load(): Promise<Load> {
    const started = performance.now();
    const results = await Promise.all(
      ROUTES.map(async (route) => {
        const req = new Request(`http://localhost/api/insights/${route}`, { headers: { cookie } });
        const res = await handleApiGet(req, { params: Promise.resolve({ path: ["insights", route] }) });
        if (res.status !== 200) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
        return [route, await res.json()] as const;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    answers = Object.fromEntries(results) as unknown as Answers;
    const stats = await sandbox.stats();
    // The sandbox's log also holds its admin requests (these stats): only /v1 calls are the key's.
    const log = stats.log.slice(seen).filter((l) => l.path.startsWith("/v1/"));
    seen = stats.log.length;
    const visitorLimits = log.filter((l) => l.path === "/v1/visitors").map((l) => new URLSearchParams(l.query).get("limit"));
    return {
      seconds,
      upstream: log.length,
      listedPages: visitorLimits.filter((l) => l === "100").length,
      countedFigures: visitorLimits.filter((l) => l === "1").length,
      mentionPages: log.filter((l) => l.path === "/v1/mentions").length,
      upstream429: log.filter((l) => l.status === 429).length,
    };
  }

  const cold = await load();
  const warm = await load();
  const a = answers!;
  const { from, to } = a.trend;
  // The range is in UTC (tz omitted), so the previous period's first bucket starts at its first date's midnight.
  const previousFrom = a.trend.previous[0]!.start.slice(0, 10);
  // Another key of the same workspace, so the checks do not touch the measured key's budget.
  const mismatches = await check(sandbox, DEMO_KEYS.limited, a, from, to, previousFrom);
  const visitorsInWindow = await directCount(sandbox, DEMO_KEYS.limited, "/visitors", { from: `${previousFrom}T00:00:00.000Z`, to: `${to}T23:59:59.999Z` });
  await sandbox.close();
  return { id: scenario.id, visitorsInWindow, cold, warm, mismatches };
}

// ---------------------------------------------------------------------------------------------
// Parent: runs each scenario in a child and prints the figures.

const self = fileURLToPath(import.meta.url);
const f2 = (n: number) => n.toFixed(2);
const describeLoad = (l: Load) =>
  `${f2(l.seconds)} s, ${l.upstream} upstream calls (${l.listedPages} visitor pages listed, ${l.countedFigures} figures counted, ${l.mentionPages} mention pages), ${l.upstream429} upstream 429s`;

export async function run(): Promise<void> {
  const failures: string[] = [];
  for (const scenario of SCENARIOS) {
    const r = await runBenchChild<Result>(self, scenario.id, { INSIGHTS_BENCH_CHILD: "1" });
    console.log(`${r.id.padEnd(9)} ${r.visitorsInWindow.toLocaleString("en-US")} visitors in the 60-day window`);
    console.log(`${"".padEnd(9)} cold: ${describeLoad(r.cold)}`);
    console.log(`${"".padEnd(9)} warm: ${describeLoad(r.warm)}`);
    console.log(`${"".padEnd(9)} exact against the sandbox's counts: ${r.mismatches.length === 0 ? "yes" : r.mismatches.join("; ")}`);
    if (r.cold.seconds >= scenario.goalColdSeconds || r.cold.upstream429 > 0 || r.mismatches.length > 0) failures.push(`${r.id} cold`);
    if (scenario.visitors === 20_000 && r.warm.seconds >= WARM_GOAL_SECONDS) failures.push(`${r.id} warm`);
  }
  console.log(
    failures.length === 0
      ? "goals met: Free cold < 30 s with 0 upstream 429s and warm < 1 s; Pro cold < 5 s; 1M Pro cold < 30 s; every answer exact"
      : `GOALS MISSED: ${failures.join(", ")}`,
  );
}

if (process.env.INSIGHTS_BENCH_CHILD === "1" && process.argv[2]) {
  const scenario = SCENARIOS.find((s) => s.id === process.argv[2]);
  if (!scenario) throw new Error(`unknown scenario ${process.argv[2]}`);
  runScenario(scenario).then(
    (result) => {
      console.log(`RESULT ${JSON.stringify(result)}`);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
