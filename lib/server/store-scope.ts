// What every route of the store starts with: the session's workspace and the store (after the
// same-origin check for a write), and a JSON body read with a zod schema, a bad field being a 400
// that names it. One place, so the notes, the alerts and whatever the store serves next judge a
// request the same way.
import "server-only";
import type { z } from "zod";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { serverContext } from "./context";
import { isSameOrigin, sameOriginRejected } from "./csrf";
import { invalidParameter, unauthorized } from "./http";
import { readJsonObject } from "./request-body";
import { getRequestSession } from "./session";

export type StoreScope = { store: Store; workspace: WorkspaceId; apiKey: string };

/** The store and the session's workspace; a write (`write: true`) must pass the same-origin check first. */
export async function storeScope(req: Request, options: { write: boolean }): Promise<StoreScope> {
  if (options.write && !isSameOrigin(req)) throw sameOriginRejected();
  const session = await getRequestSession(req);
  if (!session) throw unauthorized();
  const store = await serverContext().store();
  return { store, workspace: (await store.workspaces.workspaceForKey(session.apiKey)).id, apiKey: session.apiKey };
}

/** The request's JSON object read with `schema`, or a 400 naming the first bad field (`body` when it is not a JSON object). */
export async function jsonBodyOf<S extends z.ZodType>(req: Request, schema: S, example: string): Promise<z.output<S>> {
  const raw = await readJsonObject(req, example);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw invalidParameter(String(issue.path[0] ?? "body"), issue.message);
}
