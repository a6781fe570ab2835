// The session API: sign in with a workspace API key (or a sandbox demo key, resolved here), see
// who is signed in (masked key only), sign out, and list the demo keys without their values.
// Sign-in checks the key's form, then validates it with one cheap upstream call (/visitors?limit=1)
// and tells a rejected key apart from an upstream that is rate limiting, failing or unreachable.
// Mounted by app/api/session/**/route.ts: the route files declare what each takes (sign-in and
// sign-out are writes from this app's own pages; sign-in is an attempt at a key, throttled).
import "server-only";
import { z } from "zod";
import { isDataApiError, type DataApiError } from "@/lib/data-api/errors";
import { DEMO_IDS, loadDemoKeys } from "./demo-keys";
import { keyJustWorked } from "./key-standing";
import { finalError, json } from "./http";
import {
  API_KEY_PATTERN,
  getRequestSession,
  hasSessionCookie,
  revokeSession,
  sealSession,
  sessionClearCookie,
  sessionSetCookie,
  toPageSession,
} from "./session";
import { dataApiForKey, discardKey, rateBudgetForKey } from "./upstream";

const KEY_FORM_MESSAGE = "An API key starts with svc_sk_live_ or svc_sk_test_ followed by letters, digits, _ or - (copy it from Settings → API Keys).";

export const SIGN_IN_EXAMPLE = '{"apiKey": "svc_sk_..."} or {"demo": "free"}';

/** The sign-in body: `{apiKey}` (its form checked, trimmed) or `{demo}`; other fields are ignored. */
export const signInBody = z
  .object({ apiKey: z.unknown().optional(), demo: z.unknown().optional() })
  .transform((body, ctx): { apiKey: string } | { demo: string } => {
    if (body.demo !== undefined && body.apiKey === undefined) {
      if (typeof body.demo === "string" && (DEMO_IDS as readonly string[]).includes(body.demo)) return { demo: body.demo };
      ctx.addIssue({ code: "custom", path: ["demo"], message: `demo must be one of: ${DEMO_IDS.join(", ")}` });
      return z.NEVER;
    }
    if (typeof body.apiKey !== "string") {
      ctx.addIssue({ code: "custom", path: ["apiKey"], message: "apiKey must be a string: the workspace API key." });
      return z.NEVER;
    }
    const apiKey = body.apiKey.trim();
    if (API_KEY_PATTERN.test(apiKey)) return { apiKey };
    ctx.addIssue({ code: "custom", path: ["apiKey"], message: KEY_FORM_MESSAGE });
    return z.NEVER;
  });

function signedInBody(apiKey: string) {
  const { environment, keyHint } = toPageSession(apiKey);
  return { signedIn: true, environment, keyHint };
}

/** What the user is told when the validating call fails, by cause. */
function signInFailure(error: DataApiError): DataApiError {
  const requestId = error.requestId;
  if (error.status === 401) {
    return finalError({ status: 401, code: "invalid_key", message: "This key is not valid or was revoked.", param: "apiKey", requestId });
  }
  if (error.status === 429 || error.code === "rate_limited") {
    return finalError({
      status: 503,
      code: "rate_limited",
      message: "The Data API is rate limiting this key right now; the key may be fine. Try again shortly.",
      requestId,
      retryAfter: error.retryAfter ?? 1,
    });
  }
  if (error.code === "upstream_timeout") {
    return finalError({ status: 504, code: error.code, message: "The Data API did not answer in time; the key was not checked. Try again.", requestId });
  }
  if (error.code === "network_error") {
    return finalError({ status: 502, code: error.code, message: "The Data API could not be reached; the key was not checked. Try again.", requestId });
  }
  return finalError({
    status: 502,
    code: "upstream_error",
    message: `The Data API failed (${error.status}) while checking the key; the key may be fine. Try again shortly.`,
    requestId,
    ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
  });
}

/**
 * POST /api/session: {apiKey} or {demo}. The attempt was counted for its client (and a session it
 * already has) before the body was read (the route's `keyAttempts`); only this succeeding gives it
 * back, so whatever fails (bad body or key form, rejected key, upstream errors, timeouts) counts.
 */
export async function signIn({ body }: { body: z.output<typeof signInBody> }, req: Request): Promise<Response> {
  let apiKey: string;
  if ("demo" in body) {
    const demo = (await loadDemoKeys())?.find((k) => k.id === body.demo);
    if (!demo) {
      throw finalError({
        status: 404,
        code: "demo_unavailable",
        message: "Demo keys are only offered when the Data API is the embedded sandbox.",
        param: "demo",
      });
    }
    apiKey = demo.key;
  } else {
    apiKey = body.apiKey;
  }

  // A fresh answer, not one cached under an earlier session of the same key (a key revoked since
  // must be refused). The key's other cached data stays: with several instances it is shared by
  // everyone using the key, whose figures a sign-in elsewhere must not throw away.
  try {
    await dataApiForKey(apiKey).get("/visitors", { query: { limit: 1, offset: 0 } }, { signal: req.signal, fresh: true });
  } catch (error) {
    // 403 means the key is genuine but may not list visitors; it can still see other data.
    if (!(isDataApiError(error) && error.status === 403)) {
      if (isDataApiError(error)) {
        if (error.status === 401) discardKey(apiKey);
        throw signInFailure(error);
      }
      throw error;
    }
  }

  // The check just made is the store's recheck too (key-standing.ts): none is due for minutes.
  await keyJustWorked(apiKey);
  // The check's X-RateLimit-Limit is the workspace's plan: kept in the session for the header.
  const budget = rateBudgetForKey(apiKey);
  const sealed = await sealSession(apiKey, budget.learned ? budget.perMinute : undefined);
  return json(signedInBody(apiKey), { headers: { "Set-Cookie": sessionSetCookie(req, sealed) } });
}

/** GET /api/session: who is signed in, with the masked key only. */
export async function readSession(_ctx: unknown, req: Request): Promise<Response> {
  const session = await getRequestSession(req);
  if (!session) {
    const headers: HeadersInit = hasSessionCookie(req) ? { "Set-Cookie": sessionClearCookie(req) } : {};
    return json({ signedIn: false }, { headers });
  }
  return json(signedInBody(session.apiKey));
}

/**
 * DELETE /api/session: sign out. Only what is the session's own ends: its revocation is recorded, so
 * the cookie stops working on every instance (the browser drops its own cached answers). The key's
 * cached answers and insights figures stay: they belong to everyone using the key, teammates and other
 * instances included, and expire on their own.
 */
export async function signOut(_ctx: unknown, req: Request): Promise<Response> {
  const session = await getRequestSession(req);
  if (session) await revokeSession(session);
  return json({ signedIn: false }, { headers: { "Set-Cookie": sessionClearCookie(req) } });
}

/** GET /api/session/demo-keys: the demo keys on offer, without their values. */
export async function listDemoKeys() {
  const keys = await loadDemoKeys();
  return {
    available: keys !== null,
    keys: (keys ?? []).map(({ id, plan, workspace, description }) => ({ id, plan, workspace, description })),
  };
}
