// `/sign-in` - paste a workspace API key, or (with the sandbox as upstream) pick a demo key.
// Already signed in: go straight on to `next`.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { loadDemoKeys } from "@/lib/server/demo-keys";
import { getPageSession } from "@/lib/server/session";
import { safeNextPath } from "@/lib/ui/safe-next";
import { StoreBrowserTimeZone } from "@/components/shell/store-time-zone";
import { SignInForm } from "./client";
import { demoOptions } from "./demos";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const next = safeNextPath(first(sp.next));
  const reason = first(sp.reason);
  if (await getPageSession()) redirect(next);
  // Only each demo key's id, plan and this page's words for it reach the browser, never its value.
  const demos = demoOptions((await loadDemoKeys().catch(() => null)) ?? []);
  return (
    <main className="auth-page" id="main">
      <StoreBrowserTimeZone />
      <SignInForm next={next} reason={reason === "expired" || reason === "signed-out" || reason === "deleted" ? reason : undefined} demos={demos} />
    </main>
  );
}
