// `/mail/confirm/{token}` - the confirmation page of an e-mail destination: its button confirms (POST /api/mail/confirm/{token}); opening it changes nothing. No session needed (proxy.ts); never indexed, no referrer (its token).
import type { Metadata } from "next";
import { MailLinkAction } from "@/components/mail/mail-link-action";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm your address", robots: { index: false, follow: false }, referrer: "no-referrer" };

export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <MailLinkAction action="confirm" token={token} />;
}
