// Sandbox configuration from the environment, and the CLI (`npm run sandbox`) end to end.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadSandboxConfig } from "./config";
import { DEMO_KEYS } from "./keys";
import { startSandbox } from "./server";

// Next's types make NODE_ENV required on ProcessEnv; these tests pass only SANDBOX_* variables.
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe("loadSandboxConfig", () => {
  it("has defaults for everything", () => {
    expect(loadSandboxConfig(env({}))).toEqual({ port: 4010, host: "127.0.0.1", seed: 42, now: undefined, visitors: 20_000, faults: {} });
  });

  it("reads every variable, treating empty ones as unset", () => {
    const config = loadSandboxConfig(
      env({
        SANDBOX_PORT: "0",
        SANDBOX_HOST: "localhost",
        SANDBOX_SEED: "7",
        SANDBOX_NOW: "2026-11-20T12:00:00Z",
        SANDBOX_VISITORS: "1000000",
        SANDBOX_LATENCY_MS: "250",
        SANDBOX_ERROR_RATE: "0.1",
        SANDBOX_MALFORMED_RATE: "0.05",
        SANDBOX_RATE_LIMIT_STORM: "20",
        SANDBOX_ODD_RATE: "0.25",
        PORT: "",
      }),
    );
    expect(config).toEqual({
      port: 0,
      host: "localhost",
      seed: 7,
      now: "2026-11-20T12:00:00Z",
      visitors: 1_000_000,
      faults: { latencyMs: 250, errorRate: 0.1, malformedRate: 0.05, rateLimitStorm: 20, oddRate: 0.25 },
    });
    expect(loadSandboxConfig(env({ SANDBOX_PORT: "", SANDBOX_NOW: " " })).port).toBe(4010);
  });

  it.each([
    ["SANDBOX_PORT", "70000", /SANDBOX_PORT.*65535/],
    ["SANDBOX_PORT", "http", /SANDBOX_PORT.*whole number/],
    ["SANDBOX_SEED", "-1", /SANDBOX_SEED/],
    ["SANDBOX_NOW", "tomorrow", /SANDBOX_NOW.*ISO 8601.*2026-11-20T12:00:00Z/],
    ["SANDBOX_NOW", "2026-02-31T00:00:00Z", /SANDBOX_NOW/],
    ["SANDBOX_VISITORS", "5000000", /SANDBOX_VISITORS.*at most 2000000/],
    ["SANDBOX_VISITORS", "1e6", /SANDBOX_VISITORS.*whole number/],
    ["SANDBOX_ERROR_RATE", "10%", /SANDBOX_ERROR_RATE.*0 to 1/],
    ["SANDBOX_MALFORMED_RATE", "1.5", /SANDBOX_MALFORMED_RATE.*0 to 1/],
    ["SANDBOX_LATENCY_MS", "fast", /SANDBOX_LATENCY_MS/],
    ["SANDBOX_ODD_RATE", "2", /SANDBOX_ODD_RATE.*0 to 1/],
    ["SANDBOX_RATE_LIMIT_STORM", "-3", /SANDBOX_RATE_LIMIT_STORM/],
    ["SANDBOX_HOST", "local host", /SANDBOX_HOST/],
  ])("%s=%s is rejected with a message naming it and what to set", (name, value, message) => {
    expect(() => loadSandboxConfig(env({ [name]: value }))).toThrow(message);
  });
});

describe("startSandbox options", () => {
  it("rejects sizes and instants it cannot generate", async () => {
    await expect(startSandbox({ visitors: 3_000_000 })).rejects.toThrow(/visitors/);
    await expect(startSandbox({ visitors: 1.5 })).rejects.toThrow(/visitors/);
    await expect(startSandbox({ now: "soon" })).rejects.toThrow(/now/);
  });
});

describe("npm run sandbox (sandbox/main.ts)", () => {
  it("starts on the configured port, prints the base URL and demo keys, serves, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
      env: { ...process.env, SANDBOX_PORT: "0", SANDBOX_VISITORS: "2000", SANDBOX_NOW: "2026-11-20T12:00:00Z" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
        // Every demo key printed (they come last), not just the first few: output may arrive in chunks.
        if (m && Object.values(DEMO_KEYS).every((k) => out.includes(k))) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`exited early (${code}): ${out}`)));
    });
    for (const key of Object.values(DEMO_KEYS)) expect(out).toContain(key);
    const res = await fetch(`${baseUrl}/visitors?limit=1`, { headers: { Authorization: `Bearer ${DEMO_KEYS.free}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { meta: { total: number } }).meta.total).toBe(2000);
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("exits with the configuration error for a bad variable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
      env: { ...process.env, SANDBOX_VISITORS: "lots" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/SANDBOX_VISITORS/);
  });
});
