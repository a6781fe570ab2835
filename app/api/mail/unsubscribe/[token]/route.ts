// POST /api/mail/unsubscribe/{token} - stops an e-mail destination: the unsubscribe page's button and RFC 8058's one-click POST, accepted from other sites (a mail client's); 200; 404 (lib/alerts/mail-routes.ts).
import { MAIL_TOKEN, unsubscribeMailRoute } from "@/lib/alerts/mail-routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route(
  { access: "public", write: true, crossSite: "one-click-unsubscribe", pathParams: { token: MAIL_TOKEN }, subject: "unsubscribing the address" },
  unsubscribeMailRoute,
);
