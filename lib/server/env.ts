// The server's configuration as the app reads it: the variables declared in lib/config/env-schema.ts,
// validated when first used and then kept. A missing or malformed value becomes a ConfigError whose
// message says exactly what to set.
import "server-only";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { BASE_URL_HINT, declaredEnv, parseDashboardEnv, type CookieSecureMode } from "@/lib/config/env-schema";
import { errorBrand } from "@/lib/error-brand";
import { parseTrustedProxies, type TrustedProxies } from "./client-address";

export type { CookieSecureMode };

// A brand, not `instanceof` (lib/error-brand.ts): getEnv runs in every bundle of the build, also
// inside closures that one bundle made and another calls (the server context's stores).
const configBrand = errorBrand<ConfigError>("ConfigError");

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
    configBrand.mark(this);
  }
}

export const isConfigError = configBrand.is;

export type ServerEnv = {
  dataApiBaseUrl: string;
  sessionSecret: string;
  /** The secret before a rotation (SESSION_SECRET_PREVIOUS): still opens cookies and sealed values. */
  sessionSecretPrevious?: string;
  cacheTtlMs: number;
  timeoutMs: number;
  /** How long insights keep figures of closed days, and of ranges that include today (ms). */
  insightsTtl: { closedMs: number; openMs: number };
  /** The most rows one insights listing may read (INSIGHTS_MAX_LISTED_ROWS). */
  insightsMaxListedRows: number;
  /** How long a kept day younger than a week is trusted before it is checked again (DAY_RECHECK_MINUTES, in ms). */
  dayRecheckMs: number;
  /** A fixed per-key budget instead of the plan learned from the headers (DATA_API_RATE_BUDGET). */
  rateBudget?: { perSecond: number; perMinute: number };
  /** The most rows one export may hold; a larger view is refused with a message to narrow it. */
  exportMaxRows: number;
  /** Proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies;
  cookieSecure: CookieSecureMode;
  /** Redis shared by several instances (REDIS_URL), and the prefix of every key written there. */
  redis?: { url: string; keyPrefix: string };
  /** The store: PostgreSQL when DATABASE_URL is set, else the embedded database in `dataDir` (absolute). */
  store: { databaseUrl?: string; dataDir: string };
  /** The dashboard's public address (PUBLIC_URL, no trailing slash), for links in messages. */
  publicUrl?: string;
  /** Whether alert destinations may be private, loopback or link-local addresses. */
  webhookAllowPrivate: boolean;
  /** Between two ticks of the background jobs (JOBS_TICK_MS). */
  jobsTickMs: number;
  /** The alert sender's poll (ALERTS_POLL_MS) and one send's timeout (ALERTS_SEND_TIMEOUT_MS). */
  alerts: { pollMs: number; sendTimeoutMs: number };
  production: boolean;
};

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
  // NODE_ENV is not configuration (the entry and Next set it) but decides whether a secret is required.
  const nodeEnv = process.env.NODE_ENV || undefined;
  const fingerprint = JSON.stringify([declaredEnv(process.env), nodeEnv]);
  if (g.__waEnv?.fingerprint === fingerprint) return g.__waEnv.env;

  const parsed = parseDashboardEnv(process.env);
  if (!parsed.ok) throw new ConfigError(`${parsed.problems[0]}.`);
  const config = parsed.env;
  // Optional in the declaration (the entry starts the sandbox when it is unset), required by the time
  // the app serves: the entry sets it before Next loads.
  if (!config.DATA_API_BASE_URL) {
    throw new ConfigError(
      "DATA_API_BASE_URL is not set. Start the app with `npm start` or `npm run dev` (they start the sandbox Data API), " +
        `or set DATA_API_BASE_URL to ${BASE_URL_HINT}.`,
    );
  }
  const production = nodeEnv === "production";
  let sessionSecret = config.SESSION_SECRET;
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
    dataApiBaseUrl: config.DATA_API_BASE_URL.replace(/\/+$/, ""),
    sessionSecret,
    ...(config.SESSION_SECRET_PREVIOUS ? { sessionSecretPrevious: config.SESSION_SECRET_PREVIOUS } : {}),
    cacheTtlMs: config.DATA_API_CACHE_TTL_MS,
    timeoutMs: config.DATA_API_TIMEOUT_MS,
    insightsTtl: { closedMs: config.INSIGHTS_CLOSED_TTL_MS, openMs: config.INSIGHTS_OPEN_TTL_MS },
    insightsMaxListedRows: config.INSIGHTS_MAX_LISTED_ROWS,
    dayRecheckMs: config.DAY_RECHECK_MINUTES * 60_000,
    ...(config.DATA_API_RATE_BUDGET ? { rateBudget: parseBudget(config.DATA_API_RATE_BUDGET) } : {}),
    exportMaxRows: config.EXPORT_MAX_ROWS,
    trustedProxies: parseTrustedProxies(config.TRUSTED_PROXIES),
    cookieSecure: config.COOKIE_SECURE,
    ...(config.REDIS_URL ? { redis: { url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX } } : {}),
    store: { ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}), dataDir: path.resolve(config.DATA_DIR) },
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL.replace(/\/+$/, "") } : {}),
    webhookAllowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    jobsTickMs: config.JOBS_TICK_MS,
    alerts: { pollMs: config.ALERTS_POLL_MS, sendTimeoutMs: config.ALERTS_SEND_TIMEOUT_MS },
    production,
  };
  g.__waEnv = { fingerprint, env };
  return env;
}
