// GET /api/annotations?from&to&tz - the workspace's notes touching the range, by date; POST - adds one {date, end_date?, text, author?} (lib/annotations/routes.ts).
import { annotationRoutes, createNote, NOTES_SUBJECT } from "@/lib/annotations/routes";
import { newNote, NOTE_EXAMPLE } from "@/lib/annotations/schema";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";
export const GET = route(annotationRoutes["/annotations"]);
export const POST = route({ access: "session", write: true, store: true, body: newNote, bodyExample: NOTE_EXAMPLE, subject: NOTES_SUBJECT }, createNote);
