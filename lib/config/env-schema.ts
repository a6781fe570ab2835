// The dashboard's environment, declared once: every variable, its validation, its default and a
// one-line description (zod `.meta`). Read by the production entry (scripts/run.ts, plain Node via tsx)
// and by the server-only reader (lib/server/env.ts); `.env.example` is generated from it
// (scripts/env-example.ts). No `server-only` here: that marker throws outside Next's server bundles, and
// the entry validates the same schema before Next loads. The sandbox's SANDBOX_* variables are declared
// in sandbox/config.ts, which stays independent of the app.
import { z } from "zod";
import { DEFAULT_CACHE_TTL_MS } from "../data-api/cache";
import { DEFAULT_TIMEOUT_MS } from "../data-api/client";
import { DEFAULT_INSIGHTS_MAX_LISTED_ROWS, OFFSET_MAX } from "../data-api/constants";
import { parseTrustedProxies } from "../server/client-address";
import { DEFAULT_MAX_EXPORT_ROWS } from "../exports/stream";

export const BASE_URL_HINT = "an http(s) URL ending in /v1, e.g. https://api.example.com/v1";

const COOKIE_SECURE_MODES = ["auto", "always", "never"] as const;
/** The Secure flag of the session cookie: `auto` decides per request (see lib/server/session.ts). */
export type CookieSecureMode = (typeof COOKIE_SECURE_MODES)[number];

/** A whole number in a range, with one message that says what to set whatever is wrong with it. */
const wholeNumber = (min: number, max: number, unit: string) => {
  const error = `must be a whole number${unit} from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

export const dashboardEnvSchema = z.object({
  DATA_API_BASE_URL: z
    .string()
    .refine((u) => /^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?\/v1\/?$/.test(u) && URL.canParse(u), { error: `must be ${BASE_URL_HINT}` })
    .optional()
    .meta({
      description: "Upstream Data API base URL, ending in /v1.",
      whenUnset: "`npm start` / `npm run dev` start the embedded sandbox and use it (only then does the sign-in page offer demo keys)",
      example: "https://api.example.com/v1",
    }),
  SESSION_SECRET: z.string().min(32, { error: "must be at least 32 characters (e.g. `openssl rand -base64 32`)" }).optional().meta({
    description: "iron-session password sealing the cookie that holds the key: at least 32 characters, e.g. `openssl rand -base64 32`.",
    whenUnset:
      "generated per start with a warning (sessions end on restart) on the sandbox or in development; with a real upstream in production the server refuses to start without it",
  }),
  SESSION_SECRET_PREVIOUS: z.string().min(32, { error: "must be at least 32 characters (the SESSION_SECRET used before the rotation)" }).optional().meta({
    description:
      "The session secret before a rotation: cookies and every value the store keeps sealed under it (watched keys, alert destinations' URLs and signing secrets) still open, and are sealed again under SESSION_SECRET when the store opens and whenever one is read. Remove it once the sessions of the old secret have ended (8 hours) and /api/health, asked of an instance that still has it, says `store.sealed_under_previous` is 0.",
    whenUnset: "only SESSION_SECRET is accepted",
  }),
  PORT: wholeNumber(1, 65535, "").default(3000).meta({ description: "Dashboard port." }),
  HOSTNAME: z.string().min(1).optional().meta({ description: "The interface the dashboard listens on.", whenUnset: "all interfaces", example: "127.0.0.1" }),
  DATA_API_CACHE_TTL_MS: wholeNumber(0, 600_000, " of milliseconds")
    .default(DEFAULT_CACHE_TTL_MS)
    .meta({ description: "Per-key response cache lifetime in ms (0 disables the cache; identical concurrent requests are still made once)." }),
  INSIGHTS_CLOSED_TTL_MS: wholeNumber(0, 7 * 86_400_000, " of milliseconds")
    .default(6 * 3_600_000)
    .meta({
      description:
        "How long the insights keep figures of closed days (per-day summaries, counts of ranges that ended before now), per key, in ms; 0 keeps none. Closed days are taken as final: a later change to one (an earlier visitor converting) shows after at most this long.",
    }),
  INSIGHTS_OPEN_TTL_MS: wholeNumber(0, 600_000, " of milliseconds").default(30_000).meta({
    description:
      "How long the insights keep figures that include today (still changing), per key, in ms; 0 keeps none. With the days the store keeps on, today's figures so far are kept there too for this long, so every instance and a restarted server answer them until then.",
  }),
  INSIGHTS_MAX_LISTED_ROWS: wholeNumber(100, OFFSET_MAX, "").default(DEFAULT_INSIGHTS_MAX_LISTED_ROWS).meta({
    description:
      "The most rows one insights listing may read (the visitors or mentions of a range and its previous period, by the upstream's meta.total). Over it, visitor figures are counted instead and mention figures are refused (422) with a message to choose a shorter range, so an absurd total never plans an endless listing.",
  }),
  DAY_RECHECK_MINUTES: wholeNumber(0, 7 * 24 * 60, " of minutes")
    .default(60)
    .meta({
      description:
        "How long a kept day younger than a week is trusted before it is checked again when read, in minutes: the insights keep every closed day's figures in the store, and such a day is counted again upstream (listed again only when a count differs), so a visitor of last Tuesday who converts today shows on last Tuesday. Days a week old or more are final. 0 checks a young day on every read.",
    }),
  DATA_API_TIMEOUT_MS: wholeNumber(100, 120_000, " of milliseconds")
    .default(DEFAULT_TIMEOUT_MS)
    .meta({ description: "Timeout of one upstream attempt in ms, from sending to the end of the body." }),
  DATA_API_RATE_BUDGET: z
    .string()
    .regex(/^\s*\d{1,7}\/s\s*,\s*\d{1,9}\/min\s*$/, { error: 'must look like "50/s,1000/min" (per-second and per-minute budget)' })
    .optional()
    .meta({
      description: "A fixed per-key request budget, e.g. to leave part of a shared key's budget to other integrations.",
      whenUnset: "learned from the upstream's X-RateLimit-Limit",
      example: "5/s,60/min",
    }),
  EXPORT_MAX_ROWS: wholeNumber(1, 100_000_000, "").default(DEFAULT_MAX_EXPORT_ROWS).meta({
    description:
      "The most rows one export may hold: a larger view is refused (422) with a message to narrow the filters, so an absurd upstream total never plans an endless export.",
  }),
  TRUSTED_PROXIES: z
    .string()
    .superRefine((v, ctx) => {
      try {
        parseTrustedProxies(v);
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          message: `must be a comma list of IP addresses and CIDR ranges, e.g. "10.0.0.0/8,192.168.1.1": ${(error as Error).message}`,
        });
      }
    })
    .optional()
    .meta({
      description:
        "The reverse proxies in front of the app (comma list of IPs and CIDR ranges) whose X-Forwarded-For is believed when throttling sign-in attempts: the right-most address that is not one of them is the client. List the proxies' own addresses: a client inside a trusted range could name any address as its own. The proxy clients connect to must set X-Forwarded-For to the address it sees, not append to theirs.",
      whenUnset: "nothing forwarded is believed; the socket address is the client",
      example: "172.28.0.10",
    }),
  REDIS_URL: z
    .string()
    .refine((u) => /^rediss?:\/\/[^\s]+$/.test(u) && URL.canParse(u), { error: "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379" })
    .optional()
    .meta({
      description:
        "Redis shared by several instances of the dashboard: the per-key rate budget, the response cache, sign-in throttling, revoked sessions and export progress live there. If it goes away, each instance keeps serving with a conservative share of the budget and rejoins when it returns.",
      whenUnset: "everything stays in this process (one instance)",
      example: "redis://127.0.0.1:6379",
    }),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, { error: "must be 1 to 64 letters, digits, or : _ . -" })
    .default("wa:")
    .meta({ description: "Prefix of every key this app writes in Redis, so several deployments can share one Redis." }),
  DATABASE_URL: z
    .string()
    .refine((u) => /^postgres(?:ql)?:\/\/[^\s]+$/.test(u) && URL.canParse(u), {
      error: "must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@db.example.com:5432/dashboard",
    })
    .optional()
    .meta({
      description:
        "PostgreSQL for the store (workspaces, history, background jobs), shared by every instance of the dashboard; its schema is migrated at start-up, once, however many instances start together.",
      whenUnset: "an embedded SQLite database in DATA_DIR, for one instance",
      example: "postgres://dashboard:secret@127.0.0.1:5432/dashboard",
    }),
  DATA_DIR: z.string().trim().min(1, { error: "must be a directory path, e.g. ./data or /var/lib/dashboard" }).default("./data").meta({
    description:
      "Where the embedded store lives when DATABASE_URL is unset (created if missing; relative to the working directory). One process at a time: a second one started on the same directory is refused with a message naming the first.",
  }),
  PUBLIC_URL: z
    .string()
    .refine((u) => /^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/.test(u) && URL.canParse(u), {
      error: "must be the dashboard's http(s) address without a query or fragment, e.g. https://dashboard.example.com",
    })
    .optional()
    .meta({
      description: "The dashboard's public address, for links in digests and alerts sent by the background jobs, and the address of share links (/s/…).",
      whenUnset: "messages carry no links, and a share link takes the address the member's browser used",
      example: "https://dashboard.example.com",
    }),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("false")
    .transform((v) => v === "true")
    .meta({
      description:
        "Whether alert destinations may be on private, loopback or link-local addresses (a receiver on your own network, a test receiver; Slack destinations are Slack's own addresses either way). Off, such URLs are refused, so a webhook cannot be aimed at the dashboard's own network.",
    }),
  SMTP_URL: z
    .string()
    .refine((u) => /^smtps?:\/\/[^\s/?#]+\/?$/.test(u) && URL.canParse(u), {
      error: "must be an smtp:// or smtps:// URL of the mail server, e.g. smtp://user:pass@mail.example.com:587 or smtps://user:pass@mail.example.com:465",
    })
    .optional()
    .meta({
      description:
        "The mail server e-mail destinations are sent through: smtp:// (STARTTLS when the server offers it, usually port 587) or smtps:// (TLS from the start, usually port 465), with the user and password in the URL (percent-encoded).",
      whenUnset: "no e-mail destinations, Settings says so",
      example: "smtp://alerts:secret@mail.example.com:587",
    }),
  MAIL_FROM: z
    .string()
    .refine((v) => /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(v.trim()), {
      error: 'must be an address, or a name and an address, e.g. "Workspace Analytics <alerts@example.com>"',
    })
    .optional()
    .meta({
      description: "Who e-mails are from: an address, or a name and an address.",
      whenUnset: "required when SMTP_URL is set (the server does not start without it), as PUBLIC_URL is",
      example: "Workspace Analytics <alerts@example.com>",
    }),
  JOBS_TICK_MS: wholeNumber(1_000, 100_000, " of milliseconds").default(30_000).meta({
    description:
      "How often each instance's background jobs look for due work (the hourly collection, the digest, housekeeping), in ms: how late a slot may start, and how often a run renews its lease. Leave it; the tests of several instances shorten it.",
  }),
  ALERTS_POLL_MS: wholeNumber(100, 60_000, " of milliseconds").default(5_000).meta({
    description:
      "How often each instance's alert sender looks for due deliveries without being told (retries, and sends another instance left behind), in ms. New alerts leave at once either way.",
  }),
  ALERTS_SEND_TIMEOUT_MS: wholeNumber(1_000, 60_000, " of milliseconds").default(10_000).meta({
    description:
      "How long one alert delivery may take, from connecting to the receiver's answer, in ms; past it the attempt failed (timed out) and is tried again later. A claim on a delivery lasts this plus 10 s.",
  }),
  COOKIE_SECURE: z.enum(COOKIE_SECURE_MODES, { error: 'must be "auto", "always" or "never"' }).default("auto").meta({
    description:
      "The session cookie's Secure flag. `auto` sets it unless the request is plain http to a loopback host (localhost, 127.x, ::1); X-Forwarded-Proto: https or any other Host means Secure. `always` / `never` override; `never` only for plain http on a LAN address.",
  }),
});

export type DashboardEnv = z.output<typeof dashboardEnvSchema>;

/** The declared variables of `source`, an empty value counting as unset (what `VAR= cmd` gives). */
export function declaredEnv(source: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(dashboardEnvSchema.shape).map((name) => [name, source[name] || undefined]));
}

/**
 * Validates the dashboard's environment. On failure, one line per problem, each naming the variable
 * and what to set ("PORT must be a whole number from 1 to 65535").
 */
export function parseDashboardEnv(source: Readonly<Record<string, string | undefined>>): { ok: true; env: DashboardEnv } | { ok: false; problems: string[] } {
  const parsed = dashboardEnvSchema.safeParse(declaredEnv(source));
  if (parsed.success) {
    if (parsed.data.SMTP_URL !== undefined && parsed.data.MAIL_FROM === undefined) {
      return { ok: false, problems: ['MAIL_FROM must be set with SMTP_URL: who e-mails are from, e.g. "Workspace Analytics <alerts@example.com>"'] };
    }
    // Every e-mail carries links back (confirm, unsubscribe), and the sender has no request to take an address from.
    if (parsed.data.SMTP_URL !== undefined && parsed.data.PUBLIC_URL === undefined) {
      return {
        ok: false,
        problems: [
          "PUBLIC_URL must be set with SMTP_URL: every e-mail links back to the dashboard (to confirm, to unsubscribe), e.g. https://dashboard.example.com",
        ],
      };
    }
    return { ok: true, env: parsed.data };
  }
  // One line per variable: its first problem is enough to say what to set.
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0]);
    if (!problems.has(name)) problems.set(name, `${name} ${issue.message}`);
  }
  return { ok: false, problems: [...problems.values()] };
}
