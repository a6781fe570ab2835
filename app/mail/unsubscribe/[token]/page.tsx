// `/mail/unsubscribe/{token}` - the unsubscribe page of an e-mail destination: its button unsubscribes (POST /api/mail/unsubscribe/{token}); opening it changes nothing (a mail client's one-click POST to this address is rewritten to the route by proxy.ts). No session needed (proxy.ts); never indexed, no referrer (its token).
import type { Metadata } from "next";
import { MailLinkAction } from "@/components/mail/mail-link-action";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false, follow: false }, referrer: "no-referrer" };

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <MailLinkAction action="unsubscribe" token={token} />;
}
