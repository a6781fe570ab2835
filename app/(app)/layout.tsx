// Layout of every signed-in page: the app shell (navigation, date range, plan, environment, account
// menu) inside the viewer's time zone: the one chosen in Settings or detected in the browser, from
// its cookie, so the server's first render already counts days in it.
// proxy.ts already sends visitors without a session to /sign-in?next=...; this is the backstop.
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { planName } from "@/lib/data-api/rate-limit";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { getPageSession } from "@/lib/server/session";
import { rateBudgetForKey } from "@/lib/server/upstream";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const session = await getPageSession();
  if (!session) redirect("/sign-in");
  const tz = await viewerTimeZoneCookie();
  // The plan from the sign-in check (kept in the session), else as the key's requests have taught it.
  const budget = rateBudgetForKey(session.apiKey);
  const limit = session.rateLimit ?? (budget.learned ? budget.perMinute : undefined);
  const account = { environment: session.environment, keyHint: session.keyHint, ...(limit ? { plan: planName(limit) } : {}) };
  return (
    <ViewerTimeZoneProvider tz={tz ?? "UTC"}>
      <AppShell account={account}>{children}</AppShell>
    </ViewerTimeZoneProvider>
  );
}
