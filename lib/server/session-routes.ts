// The session API: sign in with a workspace API key (or a sandbox demo key, resolved here), see
// who is signed in (masked key only), sign out, and list the demo keys without their values.
// Sign-in checks the key's form, then validates it with one cheap upstream call (/visitors?limit=1)
// and tells a rejected key apart from an upstream that is rate limiting, failing or unreachable.
import "server-only";
import { isDataApiError, type DataApiError } from "@/lib/data-api/errors";
import { MAX_BODY_BYTES } from "./body-limit";
import { isSameOrigin } from "./csrf";
import { DEMO_IDS, loadDemoKeys } from "./demo-keys";
import { beginKeyAttempt } from "./key-attempts";
import { keyJustWorked } from "./key-standing";
import { finalError, invalidParameter, json, withErrors } from "./http";
import { readBodyText } from "./request-body";
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


const KEY_FORM_MESSAGE =
  "An API key starts with svc_sk_live_ or svc_sk_test_ followed by letters, digits, _ or - (copy it from Settings → API Keys).";

/** The sign-in body: `{apiKey}` or `{demo}`; other fields are ignored. */
function signInRequest(body: unknown): { apiKey: string } | { demo: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidParameter("body", 'The request body must be a JSON object: {"apiKey": "svc_sk_..."} or {"demo": "free"}.');
  }
  const { apiKey, demo } = body as { apiKey?: unknown; demo?: unknown };
  if (demo !== undefined && apiKey === undefined) {
    if (typeof demo !== "string" || !(DEMO_IDS as readonly string[]).includes(demo)) {
      throw invalidParameter("demo", `demo must be one of: ${DEMO_IDS.join(", ")}`);
    }
    return { demo };
  }
  if (typeof apiKey !== "string") throw invalidParameter("apiKey", "apiKey must be a string: the workspace API key.");
  return { apiKey };
}

const csrfRejected = () =>
  finalError({ status: 403, code: "csrf_rejected", message: "This request did not come from this app's own pages." });

function signedInBody(apiKey: string) {
  const { environment, keyHint } = toPageSession(apiKey);
  return { signedIn: true, environment, keyHint };
}

async function readJsonBody(req: Request): Promise<unknown> {
  const text = await readBodyText(req, MAX_BODY_BYTES);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidParameter("body", 'The request body must be JSON: {"apiKey": "svc_sk_..."}.');
  }
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
 * POST /api/session: {apiKey} or {demo}. Every attempt reserves a throttle point for its client
 * (and a session it already has; key-attempts.ts) first; only a successful sign-in gives it back, so whatever fails (bad body or key form, rejected
 * key, upstream errors, timeouts) counts. Cross-site requests are refused before that: a foreign page
 * must not be able to spend a visitor's attempts.
 */
export const signIn = withErrors("sign-in", async (req: Request) => {
  if (!isSameOrigin(req)) throw csrfRejected();
  const attempt = await beginKeyAttempt(req, "sign-in");
  const response = await signInOnce(req);
  await attempt.succeeded();
  return response;
});

async function signInOnce(req: Request): Promise<Response> {
  const parsed = signInRequest(await readJsonBody(req));

  let apiKey: string;
  if ("demo" in parsed) {
    const demo = (await loadDemoKeys())?.find((k) => k.id === parsed.demo);
    if (!demo) {
      throw finalError({ status: 404, code: "demo_unavailable", message: "Demo keys are only offered when the Data API is the embedded sandbox.", param: "demo" });
    }
    apiKey = demo.key;
  } else {
    apiKey = parsed.apiKey.trim();
    if (!API_KEY_PATTERN.test(apiKey)) throw invalidParameter("apiKey", KEY_FORM_MESSAGE);
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
export const readSession = withErrors("the session", async (req: Request) => {
  const session = await getRequestSession(req);
  if (!session) {
    const headers: HeadersInit = hasSessionCookie(req) ? { "Set-Cookie": sessionClearCookie(req) } : {};
    return json({ signedIn: false }, { headers });
  }
  return json(signedInBody(session.apiKey));
});

/**
 * DELETE /api/session: sign out. Only what is the session's own ends: its revocation is recorded, so
 * the cookie stops working on every instance (the browser drops its own cached answers). The key's
 * cached answers and insights figures stay: they belong to everyone using the key, teammates and other
 * instances included, and expire on their own.
 */
export const signOut = withErrors("sign-out", async (req: Request) => {
  if (!isSameOrigin(req)) throw csrfRejected();
  const session = await getRequestSession(req);
  if (session) await revokeSession(session);
  return json({ signedIn: false }, { headers: { "Set-Cookie": sessionClearCookie(req) } });
});

/** GET /api/session/demo-keys: the demo keys on offer, without their values. */
export const listDemoKeys = withErrors("the demo keys", async () => {
  const keys = await loadDemoKeys();
  return json({
    available: keys !== null,
    keys: (keys ?? []).map(({ id, plan, workspace, description }) => ({ id, plan, workspace, description })),
  });
});
