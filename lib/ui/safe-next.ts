// Where to go after signing in: only a path of this site is honoured, so `?next=` can never send a
// user to another origin (open redirect) or back to the sign-in page itself. Used by the sign-in
// page's server redirect, by the proxy when it builds `?next=`, and by the browser before it
// navigates, so no reading of the value (raw, decoded once or twice, dot segments resolved, tabs
// and backslashes normalised the way browsers do) can point anywhere but this origin.
const BASE = "http://same-origin.invalid";

/** Control characters (C0, DEL, C1) and the Unicode line separators: browsers drop or split on them. */
const UNSAFE_CHARS = /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Longer values are not paths this app links to; refusing them bounds the work done here. */
const MAX_LENGTH = 2000;

/** How many layers of percent-encoding are unwrapped; anything still encoded after that is refused. */
const MAX_DECODES = 3;

/** True when `value`, read as a URL reference against this origin, stays on it as a plain path. */
function staysOnSite(value: string): URL | null {
  if (!value.startsWith("/") || value.startsWith("//") || UNSAFE_CHARS.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  // Dot segments are resolved by the parser: "/.//evil" becomes "//evil", a protocol-relative URL.
  if (url.origin !== BASE || url.pathname.startsWith("//")) return null;
  return url;
}

/** Every reading of `value` that some decoder on the way might produce, raw first; null if undecodable. */
function readings(value: string): string[] | null {
  const out = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODES; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return out;
    out.push(decoded);
    current = decoded;
  }
  return null;
}

function isExcluded(pathname: string): boolean {
  return pathname === "/sign-in" || pathname.startsWith("/sign-in/") || pathname === "/api" || pathname.startsWith("/api/");
}

export function safeNextPath(next: string | null | undefined, fallback = "/"): string {
  if (typeof next !== "string" || !next || next.length > MAX_LENGTH) return fallback;
  const forms = readings(next);
  if (!forms) return fallback;
  for (const form of forms) {
    const url = staysOnSite(form);
    if (!url || isExcluded(url.pathname)) return fallback;
  }
  const url = staysOnSite(next)!;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The serialised result is what the browser will read; it must pass the same test.
  return staysOnSite(path) ? path : fallback;
}
