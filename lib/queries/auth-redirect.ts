// A 401 from this app's API means the session is gone or the stored key no longer works: clear the
// cached data and send the user to sign in, coming back to the same view afterwards.
import { errorStatus } from "./error-status";

export function signInUrl(currentPath: string, reason: "expired" | "signed-out" = "expired"): string {
  const next = new URLSearchParams({ next: currentPath, reason });
  return `/sign-in?${next.toString()}`;
}

let redirecting = false;

export function handleAuthError(error: unknown): void {
  if (typeof window === "undefined" || redirecting) return;
  if (errorStatus(error) !== 401) return;
  redirecting = true;
  const here = `${window.location.pathname}${window.location.search}`;
  window.location.assign(signInUrl(here));
}
