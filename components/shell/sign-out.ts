// Signing out, from the header's menu or Settings: the server revokes the session (the key's cached
// answers there are everyone's who uses the key, and stay), this tab drops every cached answer, and a
// full page load leaves nothing of the session.
import { sendJson } from "@/lib/queries/api";
import { holdAuthRedirects } from "@/lib/queries/auth-redirect";
import { hardNavigate } from "@/lib/ui/hard-navigate";
import { getQueryClient } from "@/lib/queries/get-query-client";

/** Signs out and leaves for the sign-in page; resolves with a message when it could not. */
export async function signOut(): Promise<string> {
  const release = holdAuthRedirects();
  try {
    await sendJson("DELETE", "/api/session");
  } catch {
    release();
    return "Could not sign out. Check your connection and try again.";
  }
  getQueryClient().clear();
  hardNavigate("/sign-in?reason=signed-out");
  return "";
}
