// POST /api/session - sign in ({apiKey} or {demo}); GET - who is signed in (masked key); DELETE - sign out (lib/server/session-routes.ts).
import { route } from "@/lib/server/route";
import { readSession, signIn, signInBody, SIGN_IN_EXAMPLE, signOut } from "@/lib/server/session-routes";

export const dynamic = "force-dynamic";
export const GET = route({ access: "public", subject: "the session" }, readSession);
export const POST = route(
  { access: "public", write: true, keyAttempts: "sign-in", body: signInBody, bodyExample: SIGN_IN_EXAMPLE, subject: "sign-in" },
  signIn,
);
export const DELETE = route({ access: "public", write: true, subject: "sign-out" }, signOut);
