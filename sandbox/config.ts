// Sandbox configuration from the environment (SANDBOX_*), validated once with zod. An invalid value
// stops start-up with a message naming the variable and what to set.
import { z } from "zod";
import type { Faults, SandboxOptions } from "./types";

export const DEFAULT_SEED = 42;
export const DEFAULT_VISITORS = 20_000;
/** The generator packs row numbers into 21 bits while sorting (see visitors.ts). */
export const MAX_VISITORS = 2_000_000;

const intVar = (name: string, min: number, max: number, hint: string) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${name} must be a whole number from ${min} to ${max} (${hint})` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `${name} must be at least ${min} (${hint})` })
        .max(max, { error: `${name} must be at most ${max} (${hint})` }),
    );

const rateVar = (name: string) =>
  z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, { error: `${name} must be a number from 0 to 1, e.g. ${name}=0.1 for 10%` })
    .transform(Number);

/** An ISO 8601 date or zoned datetime that names a real calendar day (Date.parse rolls 02-31 over). */
function isIsoInstant(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(v);
  if (!m || Number.isNaN(Date.parse(v))) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/**
 * Every SANDBOX_* variable, declared once: validation, default and a one-line description (zod
 * `.meta`, from which scripts/env-example.ts writes the sandbox part of `.env.example`).
 */
export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: intVar("SANDBOX_PORT", 0, 65535, "e.g. SANDBOX_PORT=4010; 0 picks a free port")
    .default(4010)
    .meta({ description: "The sandbox's port (0 picks a free one)." }),
  SANDBOX_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, { error: "SANDBOX_HOST must be a host name or IP address, e.g. SANDBOX_HOST=127.0.0.1" })
    .default("127.0.0.1")
    .meta({ description: "The interface the sandbox listens on (`npm start` always keeps its sandbox on 127.0.0.1)." }),
  SANDBOX_SEED: intVar("SANDBOX_SEED", 0, 4294967295, "e.g. SANDBOX_SEED=42")
    .default(DEFAULT_SEED)
    .meta({ description: "Seed of the generated data: the same seed, size and SANDBOX_NOW give the same workspace." }),
  SANDBOX_NOW: z
    .string()
    .refine(isIsoInstant, {
      error: "SANDBOX_NOW must be an ISO 8601 instant, e.g. SANDBOX_NOW=2026-11-20T12:00:00Z (unset = the real time)",
    })
    .optional()
    .meta({
      description:
        'The instant the data is dated relative to ("today"), ISO 8601; the sandbox clock, which dates the score and ranking, starts there and runs on in real time.',
      whenUnset: "the real time at start",
      example: "2026-11-20T12:00:00Z",
    }),
  SANDBOX_VISITORS: intVar("SANDBOX_VISITORS", 0, MAX_VISITORS, "e.g. SANDBOX_VISITORS=20000; scale tests use 1000000")
    .default(DEFAULT_VISITORS)
    .meta({ description: `Visitors in the demo workspace (up to ${MAX_VISITORS}; scale tests use 1000000).` }),
  SANDBOX_LATENCY_MS: intVar("SANDBOX_LATENCY_MS", 0, 60_000, "added delay per response in ms, e.g. SANDBOX_LATENCY_MS=300")
    .optional()
    .meta({ description: "Fault from the start: delay added to every response, in ms.", whenUnset: "off", example: "300" }),
  SANDBOX_ERROR_RATE: rateVar("SANDBOX_ERROR_RATE")
    .optional()
    .meta({ description: "Fault from the start: the share (0..1) of requests answered 500 internal_error.", whenUnset: "off", example: "0.2" }),
  SANDBOX_MALFORMED_RATE: rateVar("SANDBOX_MALFORMED_RATE")
    .optional()
    .meta({ description: "Fault from the start: the share (0..1) of 200 answers with a truncated JSON body.", whenUnset: "off", example: "0.1" }),
  SANDBOX_ODD_RATE: rateVar("SANDBOX_ODD_RATE").optional().meta({
    description:
      "The share (0..1) of items and objects in every answer that get realistic oddities (nulls, numbers as strings, unknown enum values, impossible dates; a fifth of the odd list rows cannot be read at all).",
    whenUnset: "off",
    example: "0.2",
  }),
  SANDBOX_RATE_LIMIT_STORM: intVar("SANDBOX_RATE_LIMIT_STORM", 0, 1_000_000, "the next N requests get 429, e.g. SANDBOX_RATE_LIMIT_STORM=20")
    .optional()
    .meta({ description: "Fault from the start: the first N requests get 429 with Retry-After: 1.", whenUnset: "off", example: "20" }),
});

export function loadSandboxConfig(env: NodeJS.ProcessEnv): SandboxOptions {
  // An empty variable counts as unset (a common result of `VAR= cmd`).
  const raw: Record<string, string> = {};
  for (const key of Object.keys(sandboxEnvSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== "") raw[key] = value.trim();
  }
  const parsed = sandboxEnvSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "SANDBOX_*");
    const message = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new Error(`Invalid sandbox configuration: ${message}`);
  }
  const c = parsed.data;
  const faults: Faults = {};
  if (c.SANDBOX_LATENCY_MS) faults.latencyMs = c.SANDBOX_LATENCY_MS;
  if (c.SANDBOX_ERROR_RATE) faults.errorRate = c.SANDBOX_ERROR_RATE;
  if (c.SANDBOX_MALFORMED_RATE) faults.malformedRate = c.SANDBOX_MALFORMED_RATE;
  if (c.SANDBOX_RATE_LIMIT_STORM) faults.rateLimitStorm = c.SANDBOX_RATE_LIMIT_STORM;
  if (c.SANDBOX_ODD_RATE) faults.oddRate = c.SANDBOX_ODD_RATE;
  return {
    port: c.SANDBOX_PORT,
    host: c.SANDBOX_HOST,
    seed: c.SANDBOX_SEED,
    now: c.SANDBOX_NOW,
    visitors: c.SANDBOX_VISITORS,
    faults,
  };
}
