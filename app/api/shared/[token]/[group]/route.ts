// GET /api/shared/{token}/{read} - a one-segment read of a shared page (the notes), for anyone with the link (lib/shares/routes.ts).
import { HEAD_COSTS_UPSTREAM } from "@/lib/server/route-types";
import { route } from "@/lib/server/route";
import { READ_SEGMENT, SHARE_TOKEN, sharedRead } from "@/lib/shares/routes";

export const dynamic = "force-dynamic";
export const GET = route(
  { access: "public", pathParams: { token: SHARE_TOKEN, group: READ_SEGMENT }, headRefused: HEAD_COSTS_UPSTREAM, subject: "the shared page" },
  sharedRead,
);
