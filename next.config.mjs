// Next.js configuration. Page security headers are set in proxy.ts (they need a per-request nonce);
// the API's are static and set here, so API requests skip the proxy entirely (see proxy.ts).

/**
 * JSON and file responses run no scripts at all: the strictest policy, and no nonce to mint.
 * The same set as the pages' (proxy.ts securityHeaders) apart from the CSP itself.
 */
const API_SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

/** A share link's answers: the viewer's browser tells no other site where it came from, and nothing is indexed. */
const SHARED_HEADERS = [
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Robots-Tag", value: "noindex, nofollow" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Lets parallel checkouts/tools build without clobbering each other's output.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The upstream transport, the Redis client and the store's database drivers are loaded once from
  // node_modules, not copied into each server chunk (~0.5 MB each for undici); better-sqlite3 is a
  // native addon, which a bundler cannot copy at all.
  serverExternalPackages: ["undici", "ioredis", "better-sqlite3", "pg"],
  async headers() {
    return [
      { source: "/api/:path*", headers: API_SECURITY_HEADERS },
      // A share link's reads (after the rule above, so these win): never indexed, no referrer.
      { source: "/api/shared/:path*", headers: SHARED_HEADERS },
    ];
  },
  // Browsers ask for /favicon.ico where a page's head names no icon (a not-found page streamed after
  // its head): the app's icon, rather than a 404 in the console.
  async redirects() {
    return [{ source: "/favicon.ico", destination: "/icon.svg", permanent: true }];
  },
};

export default nextConfig;
