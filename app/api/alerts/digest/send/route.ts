// POST /api/alerts/digest/send - sends the weekly digest of the latest full week to its destination now (lib/alerts/routes.ts).
import { sendDigest } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const POST = sameSiteOnly(sendDigest);
