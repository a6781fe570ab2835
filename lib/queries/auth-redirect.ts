// A 401 from this app's API means the session is gone or the stored key no longer works: end the
// session and send the user to sign in, coming back to the same view afterwards.
import { sendJson } from "./api";
import { errorStatus } from "./error-status";
import { hardNavigate } from "@/lib/ui/hard-navigate";

export function signInUrl(currentPath: string, reason: "expired" | "signed-out" = "expired"): string {
  const next = new URLSearchParams({ next: currentPath, reason });
  return `/sign-in?${next.toString()}`;
}

let redirecting = false;

/**
 * Signing out on purpose: until it settles, a 401 from a query still on the wire (the server revoked
 * the session a moment before it answered) must not send the user to "your session expired" instead
 * of "signed out". Returns the function to call when the sign-out failed and the session goes on.
 */
export function holdAuthRedirects(): () => void {
  const was = redirecting;
  redirecting = true;
  return () => {
    redirecting = was;
  };
}

export function handleAuthError(error: unknown): void {
  if (typeof window === "undefined" || redirecting) return;
  if (errorStatus(error) !== 401) return;
  redirecting = true;
  const here = `${window.location.pathname}${window.location.search}`;
  // Signed out first: a 401 streamed from a page's own prefetch (the key was revoked upstream) comes
  // without the cookie-clearing answer /api gives, and the sign-in page sends anyone still signed in
  // straight back to `next`.
  void sendJson("DELETE", "/api/session")
    .catch(() => undefined)
    .finally(() => hardNavigate(signInUrl(here)));
}
