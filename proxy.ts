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
//   list could be filtered by question), is sent on to `/mentions?query=<question>`, the filter;
// - a share link's page (`/s/{token}`) needs no session, its relative range is sent on to dates the
//   same way, and it says `noindex` and `no-referrer`; it stores the viewer's zone itself, once the
//   link has opened (app/s/[token]/page.tsx), so a link that does not open is a 404 at once; a client
//   loading shared pages more than 60 times a minute gets a 429 page.
// - an e-mail's link pages (`/mail/confirm/{token}`, `/mail/unsubscribe/{token}`) need no session and
//   say `noindex` and `no-referrer`; their buttons post (a GET changes nothing), and a mail client's
//   one-click POST to the unsubscribe page's address (RFC 8058) is answered by its route
//   (/api/mail/unsubscribe/{token}).
// API routes are left out of the matcher: running the proxy cost each BFF request ~0.5 ms of CPU
// (bench/bff.bench.ts). They answer 401 themselves, in the shared error shape, and their security
// headers are static (JSON runs no scripts, so no nonce) and come from `headers()` in next.config.mjs.
import { NextResponse, type NextRequest } from "next/server";
import { legacyPeriodSearch, relativeRangeSearch } from "@/lib/range/api-period";
import { parseViewerTimeZone, VIEWER_TZ_COOKIE } from "@/lib/range/viewer-time-zone";
import { clientKey } from "@/lib/server/client-address";
import { getEnv } from "@/lib/server/env";
import { SESSION_COOKIE, sessionResealCookie, unsealSession, type Session } from "@/lib/server/session";
import { createSignInThrottle } from "@/lib/server/sign-in-throttle";
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

/** A share link's page (`/s/{token}`): open without a session, read-only, its own headers. */
const isSharedPage = (pathname: string): boolean => pathname.startsWith("/s/");

/** An e-mail's link page (`/mail/confirm/{token}`, `/mail/unsubscribe/{token}`): open without a session, its button posts. */
const isMailPage = (pathname: string): boolean => /^\/mail\/(confirm|unsubscribe)\/[^/]+$/.test(pathname);

/** A shared page's loads per client: 60 a minute (each is a page of figures read for nobody signed in). */
export const SHARED_PAGE_LOADS_PER_MINUTE = 60;
const g = globalThis as typeof globalThis & { __waSharedPageLoads?: ReturnType<typeof createSignInThrottle> };
const sharedPageLoads = () => (g.__waSharedPageLoads ??= createSignInThrottle({ points: SHARED_PAGE_LOADS_PER_MINUTE, durationSec: 60 }));

function isPage(pathname: string): boolean {
  return pathname !== "/api" && !PUBLIC_PAGES.has(pathname) && !isSharedPage(pathname) && !isMailPage(pathname);
}

/** A browser loading a page (not Next's own requests for a route's data or a prefetch). */
function isDocumentRequest(request: NextRequest): boolean {
  if (request.method !== "GET" || request.headers.has("rsc") || request.headers.has("next-router-prefetch")) return false;
  const dest = request.headers.get("sec-fetch-dest");
  return dest === null ? (request.headers.get("accept") ?? "").includes("text/html") : dest === "document";
}

/** The parameter a first visit's page asks for the page again with: the browser's zone, to keep in the cookie. */
const SET_TZ_PARAM = "set_tz";

/**
 * The page a first visit gets before any other: it asks for the page again with the browser's zone
 * (`set_tz`), which the proxy keeps in the viewer's cookie on the way. A browser that kept no cookie
 * (back here within 10 s) gets the page with its zone in the link (`tz`) instead, so it never loops.
 * The script is the proxy's own, allowed by this response's nonce; `replace`, so Back skips this page.
 */
function zoneBootstrapPage(nonce: string): string {
  const script = `(function(){var tz="UTC";try{tz=Intl.DateTimeFormat().resolvedOptions().timeZone||"UTC"}catch(e){}
var key="wa_zone_stored",recent=true;try{recent=Date.now()-Number(sessionStorage.getItem(key)||0)<10000;sessionStorage.setItem(key,String(Date.now()))}catch(e){}
var u=new URL(location.href);u.searchParams.set(recent?"tz":"${SET_TZ_PARAM}",tz);location.replace(u.toString())})();`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Workspace Analytics</title></head><body><noscript>Workspace Analytics needs JavaScript.</noscript><script nonce="${nonce}">${script}</script></body></html>`;
}

export async function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const https = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });
  const { pathname, search } = request.nextUrl;
  const shared = isSharedPage(pathname);
  const mail = isMailPage(pathname);
  // A shared page or an e-mail's link page is never indexed, and tells no other site where a click on it came from (its token).
  const headers = { ...securityHeaders(csp), ...(shared || mail ? { "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow" } : {}) };

  // RFC 8058: a mail client's one-click POST goes to the List-Unsubscribe link, the page's own address;
  // it is answered by the unsubscribe route (which accepts it from other sites). A GET only shows the page.
  if (mail && request.method === "POST" && pathname.startsWith("/mail/unsubscribe/")) {
    return NextResponse.rewrite(new URL(`/api${pathname}`, request.url));
  }

  if (shared && isDocumentRequest(request)) {
    const wait = await sharedPageLoads().begin(clientKey(request, getEnv().trustedProxies));
    if (wait > 0) {
      const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><title>Too many page loads</title></head><body><main><h1>Too many page loads</h1><p>This shared page was loaded too often from here. Try again in a minute.</p></main></body></html>`;
      const response = new NextResponse(body, {
        status: 429,
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": String(wait) },
      });
      for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
      return response;
    }
  }

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

  // A signed-in page opened by a browser that has never been here (no zone cookie, no `tz` in the
  // link): a page of a few bytes reads the browser's zone and asks for the page again with it
  // (`set_tz`), which comes back here: the cookie is set on the way (by this answer, not by a script,
  // whose cookie Chromium may not have stored by the time the next request leaves) and the page
  // loaded in it. Drawing the page in UTC first and loading it again mid-stream cut its streaming
  // widgets off (React #419) and counted their insights for a zone nobody asked for.
  const setTz = request.nextUrl.searchParams.get(SET_TZ_PARAM);
  if (session && setTz !== null && isDocumentRequest(request)) {
    const target = new URL(request.url);
    target.searchParams.delete(SET_TZ_PARAM);
    const response = NextResponse.redirect(target, 307);
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    response.headers.append(
      "Set-Cookie",
      `${VIEWER_TZ_COOKIE}=${encodeURIComponent(parseViewerTimeZone(setTz) ?? "UTC")}; Path=/; Max-Age=31536000; SameSite=Lax`,
    );
    return response;
  }
  if (session && isDocumentRequest(request) && !request.cookies.has(VIEWER_TZ_COOKIE) && !request.nextUrl.searchParams.has("tz")) {
    const response = new NextResponse(zoneBootstrapPage(nonce), {
      status: 200,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    });
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    const resealed = await sessionResealCookie(request, session);
    if (resealed) response.headers.append("Set-Cookie", resealed);
    return response;
  }

  if (isQueryPage(pathname) || shared) {
    const params = request.nextUrl.searchParams;
    const now = Date.now();
    // The viewer's zone (a cookie this server cannot read is UTC); the link's `tz` wins over it.
    const viewerTz = parseViewerTimeZone(request.cookies.get(VIEWER_TZ_COOKIE)?.value) ?? "UTC";
    const sendOn =
      (pathname === "/mentions" ? legacyHighlightSearch(params) : null) ??
      (pathname === "/" ? legacyPeriodSearch(params, viewerTz, now) : null) ??
      relativeRangeSearch(params, viewerTz, now);
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
