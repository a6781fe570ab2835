// Where to go after signing in: only a same-site relative path is honoured, so `?next=` can never
// send a user to another origin (open redirect) or back to the sign-in page itself.
export function safeNextPath(next: string | null | undefined, fallback = "/"): string {
  if (!next || next.length > 2000) return fallback;
  // Must be an absolute path on this site: "/x", not "//evil", "/\\evil", "http:", "javascript:".
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(next) || next.includes("\\")) return fallback;
  try {
    const url = new URL(next, "http://same.invalid");
    if (url.origin !== "http://same.invalid") return fallback;
    if (url.pathname === "/sign-in" || url.pathname.startsWith("/api/")) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
