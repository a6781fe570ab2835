// POST /api/session - sign in ({apiKey} or {demo}); GET - who is signed in (masked key); DELETE - sign out.
import { sameSiteOnly } from "@/lib/server/csrf";
import { readSession, signIn, signOut } from "@/lib/server/session-routes";

export const dynamic = "force-dynamic";
export const GET = sameSiteOnly(readSession);
export const POST = sameSiteOnly(signIn);
export const DELETE = sameSiteOnly(signOut);
