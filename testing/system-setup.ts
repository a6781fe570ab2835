// The system layer's one server (vitest.system.config.ts `globalSetup`): the built app started once
// for every *.system.test.ts, as `npm start` runs it in production: a sandbox process of its own as the
// upstream (its clock the real one, as the server's), an embedded store in a fresh DATA_DIR, alert
// destinations on loopback allowed (the tests' receivers). The files reach it over HTTP only, through
// testing/system.ts. When the layer ends, the server's log must hold no "[api] unexpected error": a
// 500 anywhere in the layer fails the run, also from a request no test asserted on.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { distDir, hasBuild, startProductionServer } from "./production";
import { processSandbox } from "./sandbox-process";

export type SystemServer = { base: string; sandboxBase: string };

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
  const sandbox = await processSandbox(VISITORS, new Date().toISOString());
  let server: Awaited<ReturnType<typeof startProductionServer>>;
  try {
    server = await startProductionServer({ DATA_API_BASE_URL: sandbox.baseUrl, WEBHOOK_ALLOW_PRIVATE: "true" }, { logFile });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  console.log(`[system] production server at ${server.base} (up in ${Date.now() - started} ms), log ${logFile}`);
  project.provide("production", { base: server.base, sandboxBase: sandbox.baseUrl.replace(/\/v1$/, "") });

  return async () => {
    await Promise.all([server.stop(), sandbox.close()]);
    const unexpected = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("[api] unexpected error"));
    // Vitest only logs an error thrown here: the exit code says it too.
    if (unexpected.length > 0) process.exitCode = 1;
    if (unexpected.length > 0) throw new Error(`The production server answered 500 during the system tests (its log: ${logFile}):\n${unexpected.join("\n")}`);
    rmSync(logDir, { recursive: true, force: true });
  };
}
