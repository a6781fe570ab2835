// Next.js configuration. Security headers are set in proxy.ts (they need a per-request nonce).
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Lets parallel checkouts/tools build without clobbering each other's output.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
