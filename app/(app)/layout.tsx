// Layout of every signed-in page: the app shell with navigation and the "Test data" badge.
// proxy.ts already sends visitors without a session to /sign-in?next=...; this is the backstop.
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { getPageSession } from "@/lib/server/session";

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const session = await getPageSession();
  if (!session) redirect("/sign-in");
  return <AppShell environment={session.environment}>{children}</AppShell>;
}
