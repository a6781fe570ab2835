// The system layer's server of one project (vitest.system.config.ts `globalSetup`): the built app
// started once for every *.system.test.ts, as `npm start` runs it in production: a sandbox process of
// its own as the upstream (its clock the real one, as the server's), the store either embedded in a
// fresh DATA_DIR or (the `system-postgres` project) a fresh database on a PostgreSQL server started
// here, alert destinations on loopback allowed (the tests' receivers). The files reach it over HTTP only, through
// testing/system.ts. When the layer ends, the server's log must hold no "[api] unexpected error": a
// 500 anywhere in the layer fails the run, also from a request no test asserted on.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startTestPostgres, type TestPostgres } from "./postgres";
import { distDir, hasBuild, startProductionServer } from "./production";
import { processSandbox } from "./sandbox-process";

export type SystemServer = { base: string; sandboxBase: string; store: "embedded" | "postgres" };

declare module "vitest" {
  export interface ProvidedContext {
    production: SystemServer;
  }
}

/** Visitors in the sandbox's demo workspace: its default size. */
const VISITORS = 20_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!hasBuild()) throw new Error(`No build in ${distDir()}: run \`npx next build\` first (npm test builds before this layer).`);
  const started = Date.now();
  const logDir = mkdtempSync(path.join(tmpdir(), "wa-system-"));
  const logFile = path.join(logDir, "server.log");
  const onPostgres = project.name.endsWith("postgres");
  const [sandbox, postgres] = await Promise.all([
    processSandbox(VISITORS, new Date().toISOString()),
    onPostgres ? startTestPostgres() : Promise.resolve(undefined),
  ]);
  let server: Awaited<ReturnType<typeof startProductionServer>>;
  try {
    const store: Record<string, string> = postgres ? { DATABASE_URL: await (postgres as TestPostgres).createDatabase() } : {};
    server = await startProductionServer({ DATA_API_BASE_URL: sandbox.baseUrl, WEBHOOK_ALLOW_PRIVATE: "true", ...store }, { logFile });
  } catch (error) {
    await Promise.all([sandbox.close(), postgres?.stop()]);
    throw error;
  }
  console.log(`[system] ${project.name}: production server at ${server.base} (up in ${Date.now() - started} ms), log ${logFile}`);
  project.provide("production", { base: server.base, sandboxBase: sandbox.baseUrl.replace(/\/v1$/, ""), store: onPostgres ? "postgres" : "embedded" });

  return async () => {
    await Promise.all([server.stop(), sandbox.close()]);
    await postgres?.stop();
    const unexpected = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("[api] unexpected error"));
    // Vitest only logs an error thrown here: the exit code says it too.
    if (unexpected.length > 0) process.exitCode = 1;
    if (unexpected.length > 0) throw new Error(`The production server answered 500 during the system tests (its log: ${logFile}):\n${unexpected.join("\n")}`);
    rmSync(logDir, { recursive: true, force: true });
  };
}
