// Next 16 proxy (the former middleware), run before every page request (not /api/*):
// - security headers on every page: a Content-Security-Policy with a fresh nonce per request
//   (passed to Next on the request as `x-nonce` + the CSP header, so Next puts it on its own
//   scripts), frame-ancestors 'none', nosniff, a strict Referrer-Policy;
// - pages need a valid session: without one (missing, tampered, expired) the browser is sent to
//   /sign-in?next=<path+query>; a cookie sealed under SESSION_SECRET_PREVIOUS (a secret rotation)
//   comes back sealed under SESSION_SECRET, so the previous secret can be retired;
// - an old overview URL, `/?period=7d`, is sent on (307) to the range it stands for, `/?from=…&to=…`
//   (lib/range/api-period.ts): here, before the page streams, so it is a real redirect that the
//   browser's history and a bookmark see, not one made in the page after its first bytes;
// - a relative range, `range=7d` on any page the range drives (a saved view's "always the last 7
//   days"), is sent on the same way to the days it means today, `?from=…&to=…`, in the link's `tz`
//   or the viewer's zone (its cookie); a browser without the cookie is sent on after its page has
//   stored the zone and loaded again, so a first visit reads the viewer's days, not UTC's;
// - an older mentions link, `/mentions?highlight=<question>` (what a row of /queries opened before the
//   list could be filtered by question), is sent on to `/mentions?query=<question>`, the filter.
// API routes are left out of the matcher: running the proxy cost each BFF request ~0.5 ms of CPU
// (bench/bff.bench.ts). They answer 401 themselves, in the shared error shape, and their security
// headers are static (JSON runs no scripts, so no nonce) and come from `headers()` in next.config.mjs.
import { NextResponse, type NextRequest } from "next/server";
import { legacyPeriodSearch, relativeRangeSearch } from "@/lib/range/api-period";
import { parseViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";
import { SESSION_COOKIE, sessionResealCookie, unsealSession, type Session } from "@/lib/server/session";
import { isQueryPage, legacyHighlightSearch } from "@/lib/ui/page-params";
import { safeNextPath } from "@/lib/ui/safe-next";

// The not-found route is public: the front server shows it for odd page paths, signed in or not.
const PUBLIC_PAGES = new Set(["/sign-in", "/_not-found"]);

export function contentSecurityPolicy(nonce: string, options: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonce'd bootstrap load Next's chunks; eval only for React's dev tooling.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // recharts and React set inline style attributes; a style nonce would disable 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
}

function isPage(pathname: string): boolean {
  return pathname !== "/api" && !PUBLIC_PAGES.has(pathname);
}

export async function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const https = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });
  const headers = securityHeaders(csp);
  const { pathname, search } = request.nextUrl;

  let session: Session | null = null;
  if (isPage(pathname)) {
    try {
      session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
    } catch {
      // Misconfiguration (e.g. no upstream set) surfaces on the sign-in page, not as a crash here.
      session = null;
    }
    if (!session) {
      const target = new URL("/sign-in", request.url);
      // Only a path that is safe to return to is carried along: the request path itself may be a
      // trick ("//evil.example", "/.//evil.example") that the sign-in page must never be handed.
      const next = safeNextPath(`${pathname}${search}`, "");
      if (next) target.searchParams.set("next", next);
      const response = NextResponse.redirect(target, 307);
      if (request.cookies.has(SESSION_COOKIE)) response.cookies.delete(SESSION_COOKIE);
      for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
      return response;
    }
  }

  if (isQueryPage(pathname)) {
    const cookie = request.cookies.get(VIEWER_TZ_COOKIE)?.value;
    const params = request.nextUrl.searchParams;
    const now = Date.now();
    // A browser that has never been here has no zone cookie yet: a relative range in a link without
    // `tz` waits for it (the page stores the browser's zone and loads once more, and that load comes
    // back here with it), rather than becoming UTC's days for good in the URL. (A cookie this server
    // cannot read is UTC: waiting would never end.)
    const waitForZone = cookie === undefined && !params.has("tz");
    const viewerTz = parseViewerTimeZone(cookie) ?? "UTC";
    const sendOn =
      (pathname === "/mentions" ? legacyHighlightSearch(params) : null) ??
      (waitForZone ? null : ((pathname === "/" ? legacyPeriodSearch(params, viewerTz, now) : null) ?? relativeRangeSearch(params, viewerTz, now)));
    if (sendOn) {
      const response = NextResponse.redirect(new URL(`${pathname}${sendOn}`, request.url), 307);
      for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
      return response;
    }
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  const resealed = session && (await sessionResealCookie(request, session));
  if (resealed) response.headers.append("Set-Cookie", resealed);
  return response;
}

export const config = {
  matcher: [
    // Everything but the API (see above), Next's static files, image optimisation and files with an extension.
    { source: "/((?!api/|_next/static|_next/image|favicon.ico|.*\\.[a-zA-Z0-9]+$).*)" },
  ],
};
