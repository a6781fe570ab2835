// POST /api/session - sign in ({apiKey} or {demo}); GET - who is signed in (masked key); DELETE - sign out.
import { readSession, signIn, signOut } from "@/lib/server/session-routes";

export const dynamic = "force-dynamic";
export const GET = readSession;
export const POST = signIn;
export const DELETE = signOut;
