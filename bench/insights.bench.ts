// The insights view's cost: the overview's and /platforms' insights (trend, sources, platforms,
// competitors, sentiment: the last 30 days, asked at once as a page's widgets do) through the BFF's route
// handler with a session cookie, against the sandbox in its own process, cold (nothing cached)
// and warm (asked again right after). Prints the upstream calls (pages listed, figures counted),
// upstream 429s and wall time, and checks the answers against the sandbox's own counts (filtered
// lists' `meta.total` asked directly with another key), so "fast" can never mean "wrong".
// Then the same for the routes that only a listing can answer (countries, with one country's
// cities, and the questions that mention us), cold and warm, on Free and Pro at 20,000 and
// 1,000,000 visitors; and what they cost right after the overview's widgets (nothing, where the
// overview listed). Their totals are checked against the sandbox's own counts too (visitors, AI
// visitors and conversions summed over the countries; mentions per platform over the questions).
// Each scenario runs in a child process: a fresh key budget, a fresh server and an empty store (so its
// kept days, lib/insights/kept.ts, make no "cold" run warm).
// INSIGHTS_BENCH_PART=overview|dimensions runs one part only, INSIGHTS_BENCH_ONLY=<id> one scenario.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_SESSION_SECRET, benchChildMain, processSandbox, runBenchChild, type SandboxProcess } from "./support";

export const name =
  "insights: cold and warm insights view (5 routes, 30 days) on Free and Pro at 20,000 visitors, Pro at 1,000,000; countries and questions cold and warm on Free and Pro at 20,000 and 1,000,000";

type Scenario = { id: string; plan: "Free" | "Pro"; visitors: number; goalColdSeconds: number };

const SCENARIOS: Scenario[] = [
  { id: "free-20k", plan: "Free", visitors: 20_000, goalColdSeconds: 30 },
  { id: "pro-20k", plan: "Pro", visitors: 20_000, goalColdSeconds: 5 },
  { id: "pro-1m", plan: "Pro", visitors: 1_000_000, goalColdSeconds: 30 },
];
const WARM_GOAL_SECONDS = 1;
const ROUTES = ["trend", "sources", "platforms", "competitors", "sentiment"] as const;

type Load = { seconds: number; upstream: number; listedPages: number; countedFigures: number; mentionPages: number; upstream429: number };
type Result = { id: string; visitorsInWindow: number; cold: Load; warm: Load; afterOverview: DimensionLoad; mismatches: string[] };

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

/** A new, empty store for the child (the insights keep closed days there: a bench's "cold" is cold). */
function freshDataDir(): void {
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "wa-insights-bench-"));
}

async function runScenario(scenario: Scenario): Promise<Result> {
  freshDataDir();
  const { DEMO_KEYS } = await import("../sandbox/keys");
  const sandbox = await processSandbox(scenario.visitors, new Date().toISOString());
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  const { answerAsNext } = await import("../testing/api-routes");
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
        const res = await answerAsNext(req);
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
  // The countries and questions right after the overview's widgets (its listings summarised them).
  const afterOverview = await loadDimensions(sandbox, cookie, 30, { seen });
  const a = answers!;
  const { from, to } = a.trend;
  // The range is in UTC (tz omitted), so the previous period's first bucket starts at its first date's midnight.
  const previousFrom = a.trend.previous[0]!.start.slice(0, 10);
  // Another key of the same workspace, so the checks do not touch the measured key's budget.
  const mismatches = await check(sandbox, DEMO_KEYS.limited, a, from, to, previousFrom);
  const visitorsInWindow = await directCount(sandbox, DEMO_KEYS.limited, "/visitors", { from: `${previousFrom}T00:00:00.000Z`, to: `${to}T23:59:59.999Z` });
  await sandbox.close();
  return { id: scenario.id, visitorsInWindow, cold, warm, afterOverview: afterOverview.load, mismatches };
}

// ---------------------------------------------------------------------------------------------
// Child: the routes only a listing answers (countries, questions).

type DimensionScenario = { id: string; plan: "Free" | "Pro"; visitors: number; days: number; goalColdSeconds: number | null };

// At 1,000,000 visitors 30 days (with the previous 30: ~370,000 rows) are over the listing cap, so
// countries answers 422 listing_too_large at once; shorter ranges show what a listing costs there.
const DIMENSION_SCENARIOS: DimensionScenario[] = [
  { id: "free-20k-30d", plan: "Free", visitors: 20_000, days: 30, goalColdSeconds: 30 },
  { id: "pro-20k-30d", plan: "Pro", visitors: 20_000, days: 30, goalColdSeconds: 5 },
  { id: "free-1m-30d", plan: "Free", visitors: 1_000_000, days: 30, goalColdSeconds: null },
  { id: "free-1m-1d", plan: "Free", visitors: 1_000_000, days: 1, goalColdSeconds: null },
  { id: "pro-1m-30d", plan: "Pro", visitors: 1_000_000, days: 30, goalColdSeconds: null },
  { id: "pro-1m-7d", plan: "Pro", visitors: 1_000_000, days: 7, goalColdSeconds: 30 },
];

type DimensionLoad = { seconds: number; upstream: number; visitorPages: number; mentionPages: number; upstream429: number; statuses: Record<string, number> };
type DimensionAnswers = {
  countries?: {
    from: string;
    to: string;
    data: Array<{ visitors: number; ai_visitors: number; conversions: number }>;
    cities?: unknown[];
    unreadable?: { count: number };
  };
  queries?: { from: string; to: string; data: Array<{ platforms: Record<string, number> }>; unreadable?: { count: number } };
};
type DimensionResult = { id: string; cold: DimensionLoad; warm: DimensionLoad; mismatches: string[] };

const dateMinus = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Countries (with the US's cities) and questions over the `days` ending today (UTC), asked at once; 200 and 422 answers are recorded, any other fails. */
async function loadDimensions(
  sandbox: SandboxProcess,
  cookie: string,
  days: number,
  log: { seen: number },
): Promise<{ load: DimensionLoad; answers: DimensionAnswers }> {
  const { answerAsNext } = await import("../testing/api-routes");
  const query = `from=${dateMinus(days - 1)}&to=${dateMinus(0)}`;
  const started = performance.now();
  const statuses: Record<string, number> = {};
  const answers: DimensionAnswers = {};
  await Promise.all(
    (["countries", "queries"] as const).map(async (route) => {
      const req = new Request(`http://localhost/api/insights/${route}?${query}${route === "countries" ? "&country=US" : ""}`, { headers: { cookie } });
      const res = await answerAsNext(req);
      statuses[route] = res.status;
      if (res.status === 200) answers[route] = await res.json();
      else if (res.status !== 422) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const stats = await sandbox.stats();
  const calls = stats.log.slice(log.seen).filter((l) => l.path.startsWith("/v1/"));
  log.seen = stats.log.length;
  return {
    load: {
      seconds,
      upstream: calls.length,
      visitorPages: calls.filter((l) => l.path === "/v1/visitors" && new URLSearchParams(l.query).get("limit") === "100").length,
      mentionPages: calls.filter((l) => l.path === "/v1/mentions").length,
      upstream429: calls.filter((l) => l.status === 429).length,
      statuses,
    },
    answers,
  };
}

async function runDimensionScenario(scenario: DimensionScenario): Promise<DimensionResult> {
  freshDataDir();
  const { DEMO_KEYS } = await import("../sandbox/keys");
  const sandbox = await processSandbox(scenario.visitors, new Date().toISOString());
  process.env.DATA_API_BASE_URL = sandbox.baseUrl;
  process.env.SESSION_SECRET = BENCH_SESSION_SECRET;
  const { SESSION_COOKIE, sealSession } = await import("../lib/server/session");
  const key = scenario.plan === "Pro" ? DEMO_KEYS.pro : DEMO_KEYS.free;
  const cookie = `${SESSION_COOKIE}=${await sealSession(key)}`;
  const log = { seen: 0 };
  const cold = await loadDimensions(sandbox, cookie, scenario.days, log);
  const warm = await loadDimensions(sandbox, cookie, scenario.days, log);
  const mismatches: string[] = [];
  const { countries, queries } = cold.answers;
  const direct = (path: string, q: Record<string, string>) => directCount(sandbox, DEMO_KEYS.limited, path, q);
  if (countries) {
    const range = { from: `${countries.from}T00:00:00.000Z`, to: `${countries.to}T23:59:59.999Z` };
    const sum = (k: "visitors" | "ai_visitors" | "conversions") => countries.data.reduce((n, r) => n + r[k], 0);
    const same = (what: string, got: number, want: number) => got !== want && mismatches.push(`${what}: ${got} vs sandbox ${want}`);
    same("countries' visitors", sum("visitors") + (countries.unreadable?.count ?? 0), await direct("/visitors", range));
    same("countries' conversions", sum("conversions"), await direct("/visitors", { ...range, converted: "true" }));
    let ai = 0;
    for (const source of ["chatgpt", "perplexity", "claude", "gemini"]) ai += await direct("/visitors", { ...range, source });
    same("countries' AI visitors", sum("ai_visitors"), ai);
    if (warm.answers.countries && JSON.stringify(warm.answers.countries) !== JSON.stringify(countries)) mismatches.push("countries: warm differs from cold");
  }
  if (queries) {
    const range = { from: `${queries.from}T00:00:00.000Z`, to: `${queries.to}T23:59:59.999Z` };
    for (const platform of ["chatgpt", "claude", "perplexity", "gemini"]) {
      const got = queries.data.reduce((n, q) => n + (q.platforms[platform] ?? 0), 0);
      const want = await direct("/mentions", { ...range, platform });
      if (got !== want) mismatches.push(`${platform} mentions over the questions: ${got} vs sandbox ${want}`);
    }
  }
  await sandbox.close();
  return { id: scenario.id, cold: cold.load, warm: warm.load, mismatches };
}

// ---------------------------------------------------------------------------------------------
// Parent: runs each scenario in a child and prints the figures.

const self = fileURLToPath(import.meta.url);
const f2 = (n: number) => n.toFixed(2);
const describeLoad = (l: Load) =>
  `${f2(l.seconds)} s, ${l.upstream} upstream calls (${l.listedPages} visitor pages listed, ${l.countedFigures} figures counted, ${l.mentionPages} mention pages), ${l.upstream429} upstream 429s`;

const chosen = (s: { id: string }) => !process.env.INSIGHTS_BENCH_ONLY || s.id === process.env.INSIGHTS_BENCH_ONLY;

const describeDimensions = (l: DimensionLoad) =>
  `${f2(l.seconds)} s, ${l.upstream} upstream calls (${l.visitorPages} visitor pages, ${l.mentionPages} mention pages), ${l.upstream429} upstream 429s; countries ${l.statuses.countries}, queries ${l.statuses.queries}`;

export async function run(): Promise<void> {
  const part = process.env.INSIGHTS_BENCH_PART;
  const failures: string[] = [];
  if (part !== "dimensions") await runOverview(failures);
  if (part !== "overview") await runDimensions(failures);
  console.log(failures.length === 0 ? "every goal met" : `GOALS MISSED: ${failures.join(", ")}`);
}

async function runDimensions(failures: string[]): Promise<void> {
  console.log("countries (with one country's cities) and questions, the range ending today:");
  for (const scenario of DIMENSION_SCENARIOS.filter(chosen)) {
    const r = await runBenchChild<DimensionResult>(self, scenario.id, { INSIGHTS_BENCH_CHILD: "1" });
    console.log(`${r.id.padEnd(13)} cold: ${describeDimensions(r.cold)}`);
    console.log(`${"".padEnd(13)} warm: ${describeDimensions(r.warm)}`);
    console.log(`${"".padEnd(13)} exact against the sandbox's counts: ${r.mismatches.length === 0 ? "yes" : r.mismatches.join("; ")}`);
    if (r.mismatches.length > 0 || r.cold.upstream429 > 0) failures.push(`${r.id} cold`);
    if (scenario.goalColdSeconds !== null && (r.cold.seconds >= scenario.goalColdSeconds || r.cold.statuses.countries !== 200)) failures.push(`${r.id} cold`);
    if (scenario.visitors === 20_000 && (r.warm.seconds >= WARM_GOAL_SECONDS || r.warm.upstream > 0)) failures.push(`${r.id} warm`);
  }
}

async function runOverview(failures: string[]): Promise<void> {
  for (const scenario of SCENARIOS.filter(chosen)) {
    const r = await runBenchChild<Result>(self, scenario.id, { INSIGHTS_BENCH_CHILD: "1" });
    console.log(`${r.id.padEnd(9)} ${r.visitorsInWindow.toLocaleString("en-US")} visitors in the 60-day window`);
    console.log(`${"".padEnd(9)} cold: ${describeLoad(r.cold)}`);
    console.log(`${"".padEnd(9)} warm: ${describeLoad(r.warm)}`);
    console.log(`${"".padEnd(9)} exact against the sandbox's counts: ${r.mismatches.length === 0 ? "yes" : r.mismatches.join("; ")}`);
    console.log(`${"".padEnd(9)} then countries and questions: ${describeDimensions(r.afterOverview)}`);
    if (scenario.visitors === 20_000 && r.afterOverview.upstream > 0) failures.push(`${r.id} countries and questions after the overview`);
    if (r.cold.seconds >= scenario.goalColdSeconds || r.cold.upstream429 > 0 || r.mismatches.length > 0) failures.push(`${r.id} cold`);
    if (scenario.visitors === 20_000 && r.warm.seconds >= WARM_GOAL_SECONDS) failures.push(`${r.id} warm`);
  }
  if (failures.length === 0)
    console.log("overview goals met: Free cold < 30 s with 0 upstream 429s and warm < 1 s; Pro cold < 5 s; 1M Pro cold < 30 s; every answer exact");
}

benchChildMain(
  "INSIGHTS_BENCH_CHILD",
  [...SCENARIOS.map((s) => ({ ...s, part: "overview" as const })), ...DIMENSION_SCENARIOS.map((s) => ({ ...s, part: "dimensions" as const }))],
  (s): Promise<Result | DimensionResult> => (s.part === "overview" ? runScenario(s) : runDimensionScenario(s)),
);
