// Attempts that could guess a key: signing in, and linking another key to a workspace (each answer
// tells a working key from a bad one, at the cost of a few upstream calls). Both count against the
// sign-in throttle (sign-in-throttle.ts): per client, and, when the request has a session, per
// session too, so a session cannot spread its guesses over many addresses. Every attempt reserves a
// point of each before anything is checked; only a success gives them back. A refusal is the same
// 429 `too_many_attempts` with Retry-After wherever the guess is made.
import "server-only";
import { clientKey } from "./client-address";
import { serverContext } from "./context";
import { getEnv } from "./env";
import { finalError } from "./http";
import { getRequestSession } from "./session";

const REFUSED: Record<"sign-in" | "linking", (wait: number) => string> = {
  "sign-in": (wait) => `Too many failed sign-in attempts; try again in ${wait} s.`,
  linking: (wait) => `Too many failed attempts to link a key or sign in; try again in ${wait} s.`,
};

/**
 * Reserves the attempt for `req`'s client and session, or throws the 429 when either has used its
 * failures up; call `succeeded()` once the attempt worked.
 */
export async function beginKeyAttempt(req: Request, what: "sign-in" | "linking"): Promise<{ succeeded(): Promise<void> }> {
  const throttle = serverContext().stores.signInThrottle;
  const session = await getRequestSession(req);
  const names = [clientKey(req, getEnv().trustedProxies), ...(session ? [`session:${session.sessionId}`] : [])];
  let wait = 0;
  for (const name of names) wait = Math.max(wait, await throttle.begin(name));
  if (wait > 0) throw finalError({ status: 429, code: "too_many_attempts", message: REFUSED[what](wait), retryAfter: wait });
  return {
    async succeeded() {
      for (const name of names) await throttle.succeeded(name);
    },
  };
}
