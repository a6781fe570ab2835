import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, getEnv } from "./env";

const saved = { ...process.env };
const setEnv = (vars: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
};

beforeEach(() => setEnv({ DATA_API_BASE_URL: "http://127.0.0.1:4010/v1", SESSION_SECRET: "x".repeat(32), DATA_API_RATE_BUDGET: undefined }));
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

const configError = (): string => {
  try {
    getEnv();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error("expected a ConfigError");
};

describe("getEnv", () => {
  it("TRUSTED_PROXIES: none by default; a bad entry is named", () => {
    setEnv({ TRUSTED_PROXIES: undefined, COOKIE_SECURE: undefined });
    expect(getEnv()).toMatchObject({ trustedProxies: [], cookieSecure: "auto" });
    setEnv({ TRUSTED_PROXIES: "10.0.0.0/8, ::1" });
    expect(getEnv().trustedProxies).toHaveLength(2);
    setEnv({ TRUSTED_PROXIES: "10.0.0.0/8,lb.internal" });
    expect(configError()).toMatch(/^TRUSTED_PROXIES must be a comma list of IP addresses and CIDR ranges.*"lb.internal"/);
  });

  it("COOKIE_SECURE: auto, always or never", () => {
    setEnv({ COOKIE_SECURE: "always" });
    expect(getEnv().cookieSecure).toBe("always");
    setEnv({ COOKIE_SECURE: "yes" });
    expect(configError()).toMatch(/^COOKIE_SECURE must be "auto", "always" or "never"/);
  });

  it("reads a valid configuration", () => {
    setEnv({ DATA_API_CACHE_TTL_MS: "2500", DATA_API_RATE_BUDGET: "5/s, 60/min" });
    expect(getEnv()).toMatchObject({ dataApiBaseUrl: "http://127.0.0.1:4010/v1", cacheTtlMs: 2500, rateBudget: { perSecond: 5, perMinute: 60 } });
  });

  it("the store: embedded in DATA_DIR (./data, made absolute) unless DATABASE_URL names a PostgreSQL", () => {
    setEnv({ DATABASE_URL: undefined, DATA_DIR: undefined, PUBLIC_URL: undefined, WEBHOOK_ALLOW_PRIVATE: undefined, SESSION_SECRET_PREVIOUS: undefined });
    expect(getEnv()).toMatchObject({ store: { dataDir: path.resolve("data") }, webhookAllowPrivate: false });
    expect(getEnv().store).not.toHaveProperty("databaseUrl");
    expect(getEnv()).not.toHaveProperty("sessionSecretPrevious");
    expect(getEnv()).not.toHaveProperty("publicUrl");
    setEnv({
      DATA_DIR: "/var/lib/dashboard",
      DATABASE_URL: "postgresql://app:pw@db.internal:5432/dashboard",
      PUBLIC_URL: "https://dash.example.com/",
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    expect(getEnv()).toMatchObject({
      store: { dataDir: "/var/lib/dashboard", databaseUrl: "postgresql://app:pw@db.internal:5432/dashboard" },
      publicUrl: "https://dash.example.com",
      webhookAllowPrivate: true,
    });
    setEnv({ SESSION_SECRET_PREVIOUS: "p".repeat(32) });
    expect(getEnv().sessionSecretPrevious).toBe("p".repeat(32));
  });

  it.each([
    ["DATABASE_URL", "mysql://db/x", /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
    ["DATABASE_URL", "postgres://", /^DATABASE_URL must be/],
    ["DATA_DIR", "   ", /^DATA_DIR must be a directory path/],
    ["SESSION_SECRET_PREVIOUS", "short", /^SESSION_SECRET_PREVIOUS must be at least 32 characters/],
    ["PUBLIC_URL", "dash.example.com", /^PUBLIC_URL must be the dashboard's http\(s\) address/],
    ["PUBLIC_URL", "https://dash.example.com/?x=1", /^PUBLIC_URL must be/],
    ["WEBHOOK_ALLOW_PRIVATE", "yes", /^WEBHOOK_ALLOW_PRIVATE must be "true" or "false"/],
    ["SMTP_URL", "mail.example.com:587", /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    ["SMTP_URL", "https://mail.example.com", /^SMTP_URL must be/],
    ["MAIL_FROM", "Workspace Analytics", /^MAIL_FROM must be an address, or a name and an address/],
  ])("%s=%s is refused, saying what to set", (name, value, message) => {
    setEnv({ [name]: value });
    expect(configError()).toMatch(message);
  });

  it("e-mail: SMTP_URL with MAIL_FROM and PUBLIC_URL (both required with it), or none", () => {
    setEnv({ SMTP_URL: undefined, MAIL_FROM: undefined, PUBLIC_URL: undefined });
    expect(getEnv()).not.toHaveProperty("mail");
    setEnv({ SMTP_URL: "smtps://alerts:s%40cret@mail.example.com:465" });
    expect(configError()).toMatch(/^MAIL_FROM must be set with SMTP_URL/);
    setEnv({ MAIL_FROM: " Workspace Analytics <alerts@example.com> " });
    expect(configError()).toMatch(/^PUBLIC_URL must be set with SMTP_URL: every e-mail links back/);
    setEnv({ PUBLIC_URL: "https://dashboard.example.com" });
    expect(getEnv().mail).toEqual({ smtpUrl: "smtps://alerts:s%40cret@mail.example.com:465", from: "Workspace Analytics <alerts@example.com>" });
  });

  it("tells how to start when DATA_API_BASE_URL is unset", () => {
    setEnv({ DATA_API_BASE_URL: undefined });
    expect(configError()).toMatch(/DATA_API_BASE_URL is not set.*npm start.*npm run dev/);
  });

  it.each(["https://api.example.com", "ftp://x/v1", "https://api.example.com/v2", "not a url/v1"])("rejects DATA_API_BASE_URL=%s", (url) => {
    setEnv({ DATA_API_BASE_URL: url });
    expect(configError()).toMatch(/^DATA_API_BASE_URL must be an http\(s\) URL ending in \/v1/);
  });

  it("requires SESSION_SECRET in production and a long enough one everywhere", () => {
    setEnv({ SESSION_SECRET: "short" });
    expect(configError()).toMatch(/SESSION_SECRET must be at least 32 characters/);
    setEnv({ SESSION_SECRET: undefined, NODE_ENV: "production" });
    expect(configError()).toMatch(/SESSION_SECRET is required in production.*openssl rand/);
  });

  it("generates a session secret outside production, the same one for the whole process", () => {
    setEnv({ SESSION_SECRET: undefined, NODE_ENV: "development" });
    const first = getEnv().sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    setEnv({ DATA_API_CACHE_TTL_MS: "1" });
    expect(getEnv().sessionSecret).toBe(first);
  });

  it.each([
    ["DATA_API_TIMEOUT_MS", "50", "DATA_API_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000."],
    ["DATA_API_CACHE_TTL_MS", "soon", "DATA_API_CACHE_TTL_MS must be a whole number of milliseconds from 0 to 600000."],
    ["EXPORT_MAX_ROWS", "1.5", "EXPORT_MAX_ROWS must be a whole number from 1 to 100000000."],
    // Offsets past OFFSET_MAX are not asked for, so the cap stays within it.
    ["INSIGHTS_MAX_LISTED_ROWS", "20000000", "INSIGHTS_MAX_LISTED_ROWS must be a whole number from 100 to 10000000."],
  ])("%s=%s is refused with its range", (name, value, message) => {
    setEnv({ [name]: value });
    expect(configError()).toBe(message);
  });

  it("rejects a malformed DATA_API_RATE_BUDGET", () => {
    setEnv({ DATA_API_RATE_BUDGET: "fast" });
    expect(configError()).toMatch(/DATA_API_RATE_BUDGET must look like "50\/s,1000\/min"/);
  });
});
