// What a share link may hold, checked once, here, before anything reaches the store: a name as a saved
// view's; one of the five pages that may be shared (never a list of visitors, mentions, Settings or
// anything else: pages.ts) with that page's own parameters; an optional password; an optional expiry.
import { z } from "zod";
import { pageQuery, viewName } from "@/lib/views/schema";
import { isSharedPage, MAX_PASSWORD, MIN_PASSWORD, SHARED_PAGES } from "./pages";

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
