// GET /api/alerts/digest - where the weekly digest goes; PUT {destination_id | null} - sets it (lib/alerts/routes.ts).
import { getDigest, putDigest } from "@/lib/alerts/routes";
import { sameSiteOnly } from "@/lib/server/csrf";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(getDigest);
export const PUT = sameSiteOnly(putDigest);
