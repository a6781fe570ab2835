// The days the store keeps, through the production build (`npm start`) restarted between two reads
// of the same range, on the layer's store (embedded: the same DATA_DIR; PostgreSQL: the same
// database): after the restart the insights of a range of closed days answer exactly as before it
// without one call to the Data API, so does a range ending today while today's figures are fresh
// (INSIGHTS_OPEN_TTL_MS), and past that it asks for today only. Its own servers
// and sandbox process (counting the calls), not the layer's shared one, as it restarts them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { startTestPostgres, type TestPostgres } from "@/testing/postgres";
import { apiClient, signIn, startProductionServer, type ProductionServer } from "@/testing/production";
import { processSandbox, type SandboxProcess } from "@/testing/sandbox-process";
import { production } from "@/testing/system";

const ROUTES: Array<[string, Record<string, string>]> = [
  ["trend", {}],
  ["sources", {}],
  ["platforms", {}],
  ["competitors", {}],
  ["sentiment", {}],
  ["countries", { country: "US" }],
  ["queries", {}],
];

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let sandbox: SandboxProcess | undefined;
let postgres: TestPostgres | undefined;
let server: ProductionServer | undefined;
const dirs: string[] = [];

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the days the store keeps, across a restart of the production server", () => {
  it("a range read before the restart is answered after it from the kept days: the same answers, no call for closed days, today's alone otherwise", async () => {
    const now = Date.now();
    sandbox = await processSandbox(20_000, new Date(now).toISOString());
    const dataDir = mkdtempSync(path.join(tmpdir(), "wa-kept-"));
    dirs.push(dataDir);
    const logs: string[] = [];
    const store: Record<string, string> =
      production().store === "postgres"
        ? { DATABASE_URL: await (postgres = await startTestPostgres()).createDatabase() }
        : { DATA_DIR: path.join(dataDir, "store") };
    // Today's figures so far are answered from the store for INSIGHTS_OPEN_TTL_MS after they were
    // read: ten minutes here (a restart falls within it), then none (today is read again).
    const start = (openTtlMs = 600_000) => {
      logs.push(path.join(dataDir, `server-${logs.length + 1}.log`));
      return startProductionServer({ DATA_API_BASE_URL: sandbox!.baseUrl, INSIGHTS_OPEN_TTL_MS: String(openTtlMs), ...store }, { logFile: logs.at(-1)! });
    };

    const closed = { from: date(now - 30 * 86_400_000), to: date(now - 86_400_000) };
    const withToday = { from: date(now - 6 * 86_400_000), to: date(now) };
    const read = async (base: string, cookie: string, range: Record<string, string>) => {
      const client = apiClient(base, cookie);
      const out: Record<string, unknown> = {};
      for (const [route, extra] of ROUTES) {
        const res = await client.call("GET", `/api/insights/${route}?${new URLSearchParams({ ...range, ...extra })}`);
        expect(res.status, `${route}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
        out[route] = res.body;
      }
      return out;
    };
    const calls = async (since: number) => (await sandbox!.stats()).log.slice(since).filter((l) => l.path.startsWith("/v1/"));

    server = await start();
    const cookie = await signIn(server.base, { apiKey: DEMO_KEYS.pro });
    const before = await read(server.base, cookie, closed);
    const beforeToday = await read(server.base, cookie, withToday);
    await server.stop();
    server = undefined;

    server = await start();
    // The same cookie: the session outlives the restart (its secret is the same).
    let seen = (await sandbox.stats()).log.length;
    expect(await read(server.base, cookie, closed)).toEqual(before);
    expect(await calls(seen)).toEqual([]);

    // Today's figures so far, read minutes ago at most: kept too.
    seen = (await sandbox.stats()).log.length;
    expect(await read(server.base, cookie, withToday)).toEqual(beforeToday);
    expect(await calls(seen)).toEqual([]);
    await server.stop();
    server = undefined;

    // Restarted to trust today's figures no time at all: today alone is read again.
    server = await start(0);
    seen = (await sandbox.stats()).log.length;
    const afterToday = await read(server.base, cookie, withToday);
    // The sandbox's data ends at its start, so today's figures are the same as before the restart.
    expect(afterToday).toEqual(beforeToday);
    const todayStart = Date.parse(`${date(now)}T00:00:00.000Z`);
    const asked = await calls(seen);
    expect(asked.length).toBeGreaterThan(0);
    for (const call of asked) expect(Date.parse(new URLSearchParams(call.query).get("from")!) >= todayStart, `${call.path}?${call.query}`).toBe(true);
    for (const log of logs) expect(readFileSync(log, "utf8")).not.toContain("[api] unexpected error");
  });
});
