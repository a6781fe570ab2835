// `npm start` (scripts/run.ts) with a bad configuration: it stops before Next loads, with one line per
// bad variable that names it and says what to set, whichever part of the app reads the variable.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

/** Runs the entry; resolves with its exit code and output, or kills it if it is still up after `ms`. */
function runEntry(vars: Record<string, string>, ms = 20_000): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/run.ts", "start"], {
    // Port 1 is never ours to bind: a run that got past validation fails instead of serving.
    env: { ...process.env, PORT: "1", HOSTNAME: "127.0.0.1", NODE_ENV: "production", ...vars },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const REAL_UPSTREAM = { DATA_API_BASE_URL: "http://127.0.0.1:9/v1", SESSION_SECRET: "s".repeat(32) };

describe("npm start with a bad configuration", () => {
  it("stops on a variable only the app's server code reads, before loading Next", async () => {
    const { code, out } = await runEntry({ ...REAL_UPSTREAM, DATA_API_CACHE_TTL_MS: "soon", EXPORT_MAX_ROWS: "0" });
    expect(code).toBe(1);
    expect(out).toContain("Configuration error: DATA_API_CACHE_TTL_MS must be a whole number of milliseconds from 0 to 600000.");
    expect(out).toContain("Configuration error: EXPORT_MAX_ROWS must be a whole number from 1 to 100000000.");
    expect(out).not.toMatch(/Dashboard:|Data API:/);
  });

  it("names each bad variable once, with what to set", async () => {
    const { code, out } = await runEntry({ ...REAL_UPSTREAM, PORT: "http", COOKIE_SECURE: "yes", TRUSTED_PROXIES: "lb.internal" });
    expect(code).toBe(1);
    expect(out).toContain("Configuration error: PORT must be a whole number from 1 to 65535.");
    expect(out).toContain('Configuration error: COOKIE_SECURE must be "auto", "always" or "never".');
    expect(out).toMatch(/Configuration error: TRUSTED_PROXIES must be a comma list of IP addresses and CIDR ranges.*"lb\.internal"/);
    expect(out.match(/Configuration error/g)).toHaveLength(3);
  });

  it("refuses a DATA_API_BASE_URL the app would refuse, with the hint", async () => {
    // The entry's own check once let this one through to an app that then refused every request.
    const { code, out } = await runEntry({ ...REAL_UPSTREAM, DATA_API_BASE_URL: "https://api.example.com/#/v1" });
    expect(code).toBe(1);
    expect(out).toContain("Configuration error: DATA_API_BASE_URL must be an http(s) URL ending in /v1, e.g. https://api.example.com/v1.");
  });

  it("requires SESSION_SECRET with a real upstream, and a sandbox variable is checked before the sandbox starts", async () => {
    const missing = await runEntry({ DATA_API_BASE_URL: REAL_UPSTREAM.DATA_API_BASE_URL, SESSION_SECRET: "" });
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/SESSION_SECRET is required with a real Data API.*\n.*openssl rand/);
    const sandbox = await runEntry({ DATA_API_BASE_URL: "", SANDBOX_VISITORS: "lots" });
    expect(sandbox.code).toBe(1);
    expect(sandbox.out).toMatch(/Invalid sandbox configuration: SANDBOX_VISITORS must be a whole number/);
  });
});
