// GET /api/tokens - the workspace's read-only access tokens (hint, made, last used, expiry), newest first; POST - makes one {name, expires_at?}, answered once with the token (lib/tokens/routes.ts).
import { route } from "@/lib/server/route";
import { createToken, listTokens } from "@/lib/tokens/routes";
import { NEW_TOKEN_EXAMPLE, newToken } from "@/lib/tokens/schema";

export const dynamic = "force-dynamic";
export const GET = route({ access: "session", store: true, subject: "the access tokens" }, listTokens);
export const POST = route(
  { access: "session", write: true, store: true, body: newToken, bodyExample: NEW_TOKEN_EXAMPLE, subject: "making the access token" },
  createToken,
);
