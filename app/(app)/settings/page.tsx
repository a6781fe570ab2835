// `/settings` - the environment of the key in use, its masked form, the theme, sign out, and whether
// e-mail destinations can be added (a mail server is set up).
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getEnv } from "@/lib/server/env";
import { getPageSession } from "@/lib/server/session";
import { parseTheme, THEME_COOKIE } from "@/lib/ui/theme";
import { SettingsClient } from "./client";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const session = await getPageSession();
  if (!session) redirect("/sign-in?next=%2Fsettings");
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  // Only the masked hint is passed on; the key itself stays here. Whether e-mail can be sent, not how.
  return <SettingsClient environment={session.environment} keyHint={session.keyHint} theme={theme} emailAvailable={getEnv().mail !== undefined} />;
}
