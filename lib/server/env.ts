// Server configuration, validated with zod when first used and then kept. A missing or malformed
// value becomes a ConfigError whose message says exactly what to set.
import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { DEFAULT_CACHE_TTL_MS } from "@/lib/data-api/cache";
import { DEFAULT_TIMEOUT_MS } from "@/lib/data-api/client";
import { DEFAULT_MAX_EXPORT_ROWS } from "./export/stream";
import { parseTrustedProxies, type TrustedProxies } from "./client-address";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const COOKIE_SECURE_MODES = ["auto", "always", "never"] as const;

const BASE_URL_HINT = "an http(s) URL ending in /v1, e.g. https://api.example.com/v1";

const schema = z.object({
  DATA_API_BASE_URL: z
    .string({ error: "is not set" })
    .refine((u) => /^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?\/v1\/?$/.test(u) && URL.canParse(u), { error: `must be ${BASE_URL_HINT}` }),
  SESSION_SECRET: z.string().min(32, { error: "must be at least 32 characters (e.g. `openssl rand -base64 32`)" }).optional(),
  DATA_API_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_CACHE_TTL_MS),
  DATA_API_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(DEFAULT_TIMEOUT_MS),
  DATA_API_RATE_BUDGET: z
    .string()
    .regex(/^\s*\d{1,7}\/s\s*,\s*\d{1,9}\/min\s*$/, { error: 'must look like "50/s,1000/min" (per-second and per-minute budget)' })
    .optional(),
  EXPORT_MAX_ROWS: z.coerce.number().int().min(1).max(100_000_000).default(DEFAULT_MAX_EXPORT_ROWS),
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        parseTrustedProxies(v);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `must be a comma list of IP addresses and CIDR ranges, e.g. "10.0.0.0/8,192.168.1.1": ${(error as Error).message}` });
      }
    }),
  COOKIE_SECURE: z.enum(COOKIE_SECURE_MODES, { error: 'must be "auto", "always" or "never"' }).default("auto"),
  NODE_ENV: z.string().optional(),
});

/** The Secure flag of the session cookie: `auto` decides per request (see session.ts). */
export type CookieSecureMode = (typeof COOKIE_SECURE_MODES)[number];

export type ServerEnv = {
  dataApiBaseUrl: string;
  sessionSecret: string;
  cacheTtlMs: number;
  timeoutMs: number;
  /** A fixed per-key budget instead of the plan learned from the headers (DATA_API_RATE_BUDGET). */
  rateBudget?: { perSecond: number; perMinute: number };
  /** The most rows one export may hold; a larger view is refused with a message to narrow it. */
  exportMaxRows: number;
  /** Proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies;
  cookieSecure: CookieSecureMode;
  production: boolean;
};

const RELEVANT = [
  "DATA_API_BASE_URL",
  "SESSION_SECRET",
  "DATA_API_CACHE_TTL_MS",
  "DATA_API_TIMEOUT_MS",
  "DATA_API_RATE_BUDGET",
  "EXPORT_MAX_ROWS",
  "TRUSTED_PROXIES",
  "COOKIE_SECURE",
  "NODE_ENV",
] as const;

type EnvState = { fingerprint: string; env: ServerEnv } | undefined;
// On globalThis: the proxy and the route handlers are bundled separately but share the process,
// and a generated session secret must be the same for both (and survive dev hot reloads).
const g = globalThis as typeof globalThis & { __waEnv?: EnvState; __waGeneratedSecret?: string };

function parseBudget(value: string): { perSecond: number; perMinute: number } {
  const [perSecond, perMinute] = value.split(",").map((part) => Number.parseInt(part.trim(), 10));
  return { perSecond: Math.max(1, perSecond!), perMinute: Math.max(1, perMinute!) };
}

/** The validated configuration. Re-validated only when the relevant variables change (tests). */
export function getEnv(): ServerEnv {
  const raw = Object.fromEntries(RELEVANT.map((k) => [k, process.env[k] || undefined]));
  const fingerprint = JSON.stringify(raw);
  if (g.__waEnv?.fingerprint === fingerprint) return g.__waEnv.env;

  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    if (name === "DATA_API_BASE_URL" && raw.DATA_API_BASE_URL === undefined) {
      throw new ConfigError(
        "DATA_API_BASE_URL is not set. Start the app with `npm start` or `npm run dev` (they start the sandbox Data API), " +
          `or set DATA_API_BASE_URL to ${BASE_URL_HINT}.`,
      );
    }
    throw new ConfigError(`${name} ${issue.message}.`);
  }
  const production = parsed.data.NODE_ENV === "production";
  let sessionSecret = parsed.data.SESSION_SECRET;
  if (!sessionSecret) {
    if (production) {
      throw new ConfigError(
        "SESSION_SECRET is required in production: set it to a random string of at least 32 characters, " +
          "e.g. `export SESSION_SECRET=$(openssl rand -base64 32)`.",
      );
    }
    if (!g.__waGeneratedSecret) {
      g.__waGeneratedSecret = randomBytes(32).toString("base64url");
      console.warn("Warning: SESSION_SECRET is not set; generated one for this process. Sessions end when it restarts.");
    }
    sessionSecret = g.__waGeneratedSecret;
  }
  const env: ServerEnv = {
    dataApiBaseUrl: parsed.data.DATA_API_BASE_URL.replace(/\/+$/, ""),
    sessionSecret,
    cacheTtlMs: parsed.data.DATA_API_CACHE_TTL_MS,
    timeoutMs: parsed.data.DATA_API_TIMEOUT_MS,
    ...(parsed.data.DATA_API_RATE_BUDGET ? { rateBudget: parseBudget(parsed.data.DATA_API_RATE_BUDGET) } : {}),
    exportMaxRows: parsed.data.EXPORT_MAX_ROWS,
    trustedProxies: parseTrustedProxies(parsed.data.TRUSTED_PROXIES),
    cookieSecure: parsed.data.COOKIE_SECURE,
    production,
  };
  g.__waEnv = { fingerprint, env };
  return env;
}
