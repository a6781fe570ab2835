// POST /api/alerts/digest/send - sends the weekly digest of the latest full week to its destination now (lib/alerts/routes.ts).
import { sendDigest } from "@/lib/alerts/routes";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const POST = route({ access: "session", write: true, store: true, subject: "sending the digest" }, sendDigest);
