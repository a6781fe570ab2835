// CSRF check for session-changing requests (sign-in, sign-out): a browser always sends Origin on
// POST/DELETE (and Sec-Fetch-Site), so a cross-site form or script is refused. Requests without
// either header do not come from a browser page and carry no ambient cookie risk.
import "server-only";

export function isSameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? new URL(req.url).host;
  if (origin !== null) {
    if (origin === "null") return false;
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  return true;
}
