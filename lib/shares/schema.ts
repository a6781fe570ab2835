// What a share link may hold, checked once, here, before anything reaches the store: a name as a saved
// view's; one of the five pages that may be shared (never a list of visitors, mentions, Settings or
// anything else) with that page's own parameters; an optional password; an optional expiry. What the
// shared page may read is declared here too (SHARED_READS): the routes each page's widgets ask, and
// nothing else. No `server-only`: Settings and the share dialog take the same rules.
import { z } from "zod";
import { pageQuery, viewName } from "@/lib/views/schema";

/** The pages a link may share, and the reads each one's widgets make (as /api paths). */
export const SHARED_READS = {
  "/": ["/analytics/overview", "/analytics/funnel", "/intelligence/score", "/intelligence/ranking", "/insights/trend", "/insights/sources", "/annotations"],
  "/platforms": ["/insights/platforms", "/insights/sentiment", "/insights/competitors", "/intelligence/score", "/intelligence/ranking", "/history/score"],
  "/locations": ["/insights/countries"],
  "/queries": ["/insights/queries"],
  "/intelligence": ["/intelligence/score", "/intelligence/ranking", "/history/score", "/history/ranking", "/annotations"],
} as const satisfies Record<string, readonly string[]>;

export type SharedPage = keyof typeof SHARED_READS;

export const SHARED_PAGES = Object.keys(SHARED_READS) as SharedPage[];

export const isSharedPage = (path: string): path is SharedPage => Object.hasOwn(SHARED_READS, path);

/** A password's bounds, in characters. */
export const MIN_PASSWORD = 6;
export const MAX_PASSWORD = 128;

/** A token as made (lib/shares/access.ts: 24 random bytes, base64url); anything else opens nothing. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const sharedPath = z.unknown().transform((path, ctx) => {
  if (typeof path === "string" && isSharedPage(path)) return path;
  ctx.addIssue({ code: "custom", message: `path must be one of the pages that may be shared: ${SHARED_PAGES.join(", ")}.` });
  return z.NEVER;
});

const password = z
  .string({ error: "password must be a string, or left out for a link without one." })
  .refine((p) => [...p].length >= MIN_PASSWORD && [...p].length <= MAX_PASSWORD, {
    message: `password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`,
  });

/** An instant in ISO 8601 with its offset; whether it is still ahead is the route's to judge (its clock). */
const expiry = z.iso
  .datetime({ offset: true, error: "expires_at must be a date and time in ISO 8601 (2026-12-31T23:59:00Z), or null for a link that does not expire." })
  .transform((at) => Date.parse(at));

/** POST /api/shares {name, path, query, password?, expires_at?}: the link to make, field by field. */
export const newShare = z
  .object({ name: viewName, path: sharedPath, query: z.unknown(), password: password.nullish(), expires_at: expiry.nullish() })
  .transform((share, ctx) => {
    const checked = pageQuery(share.path, share.query ?? {});
    if ("problem" in checked) {
      ctx.addIssue({ code: "custom", path: ["query"], message: checked.problem });
      return z.NEVER;
    }
    return { name: share.name, path: share.path, query: checked.query, password: share.password ?? null, expiresAt: share.expires_at ?? null };
  });
export const NEW_SHARE_EXAMPLE = '{"name": "…", "path": "/platforms", "query": {"range": "30d"}, "password": "optional", "expires_at": "2026-12-31T23:59:00Z"}';

/** PATCH /api/shares/{id} {name?, password?, expires_at?}: `null` removes the password or the expiry; a field left out stays. */
export const changedShare = z.object({ name: viewName.optional(), password: password.nullable().optional(), expires_at: expiry.nullable().optional() });
export const CHANGED_SHARE_EXAMPLE = '{"password": null, "expires_at": "2026-12-31T23:59:00Z"}';

/** POST /api/shared/{token}/unlock {password}. */
export const unlockBody = z.object({ password: z.string({ error: "password must be a string." }).max(MAX_PASSWORD * 4, { error: "password is too long." }) });
export const UNLOCK_EXAMPLE = '{"password": "…"}';

/** A link's id as the store makes them; anything else is simply not found. */
export const SHARE_ID = {
  pattern: /^shr_[A-Za-z0-9_-]{22}$/,
  message: "This workspace has no share link with that id (it may have been revoked).",
  refusal: "not_found",
} as const;
