// DELETE /api/tokens/{id} - revokes an access token of the workspace, at once on every instance (lib/tokens/routes.ts).
import { route } from "@/lib/server/route";
import { revokeToken } from "@/lib/tokens/routes";
import { TOKEN_ID } from "@/lib/tokens/schema";

export const dynamic = "force-dynamic";
export const DELETE = route({ access: "session", write: true, store: true, pathParams: { id: TOKEN_ID }, subject: "the access token" }, revokeToken);
