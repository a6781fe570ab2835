// The data route handlers of the BFF as plain `(req, ctx) => Promise<Response>` functions, so they
// are tested over HTTP-free calls and mounted by thin files under app/api. Each one: reads the
// session (401 without one), validates its query with the shared params schema (400 naming the
// parameter, before any upstream call; unknown parameters dropped), calls the key's DataApi and
// answers with the canonical shape. Path ids are checked after decoding and then URL-encoded by
// the client, so nothing but the allow-listed upstream paths can ever be reached.
import "server-only";
import type { z } from "zod";
import { VISITOR_ID_PATTERN } from "@/lib/data-api/constants";
import { mentionListParams, noParams, parseQuery, periodParams, visitorListParams } from "@/lib/data-api/params";
import { invalidParameter, json, unauthorized, withErrors, type RouteContext } from "./http";
import { getRequestSession, type PageSession } from "./session";
import { dataApiForKey } from "./upstream";

export async function requireSession(req: Request): Promise<PageSession> {
  const session = await getRequestSession(req);
  if (!session) throw unauthorized();
  return session;
}

/** The request's query parsed with `schema`, or a 400 naming the first bad parameter. */
export function queryOf<S extends z.ZodObject>(req: Request, schema: S): z.output<S> {
  const parsed = parseQuery(schema, new URL(req.url).searchParams);
  if (!parsed.success) throw invalidParameter(parsed.param, parsed.message);
  return parsed.data;
}

const ID_MESSAGE = "id must be a visitor id: vis_ followed by 1 to 64 letters, digits, _ or -";

/** A visitor id from the path, decoded (once more, in case the router left escapes) and checked. */
export function visitorIdOf(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > 300) throw invalidParameter("id", ID_MESSAGE);
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw invalidParameter("id", ID_MESSAGE);
  }
  if (!VISITOR_ID_PATTERN.test(id)) throw invalidParameter("id", ID_MESSAGE);
  return id;
}

type IdContext = RouteContext<{ id: string }>;

export const listVisitors = withErrors("the visitor list", async (req: Request) => {
  const session = await requireSession(req);
  const params = queryOf(req, visitorListParams);
  return json(await dataApiForKey(session.apiKey).listVisitors(params, { signal: req.signal }));
});

export const getVisitor = withErrors<IdContext>("this visitor", async (req, ctx) => {
  const session = await requireSession(req);
  const id = visitorIdOf((await ctx.params).id);
  return json(await dataApiForKey(session.apiKey).getVisitor(id, { signal: req.signal }));
});

export const getVisitorTimeline = withErrors<IdContext>("visitor timelines", async (req, ctx) => {
  const session = await requireSession(req);
  const id = visitorIdOf((await ctx.params).id);
  return json(await dataApiForKey(session.apiKey).getVisitorTimeline(id, { signal: req.signal }));
});

export const listMentions = withErrors("the mentions", async (req: Request) => {
  const session = await requireSession(req);
  const params = queryOf(req, mentionListParams);
  return json(await dataApiForKey(session.apiKey).listMentions(params, { signal: req.signal }));
});

export const getOverview = withErrors("the overview", async (req: Request) => {
  const session = await requireSession(req);
  const params = queryOf(req, periodParams);
  return json(await dataApiForKey(session.apiKey).getOverview(params, { signal: req.signal }));
});

export const getTraffic = withErrors("traffic by source", async (req: Request) => {
  const session = await requireSession(req);
  const params = queryOf(req, periodParams);
  return json(await dataApiForKey(session.apiKey).getTraffic(params, { signal: req.signal }));
});

export const getFunnel = withErrors("the funnel", async (req: Request) => {
  const session = await requireSession(req);
  const params = queryOf(req, periodParams);
  return json(await dataApiForKey(session.apiKey).getFunnel(params, { signal: req.signal }));
});

export const getScore = withErrors("the AI Positioning Score", async (req: Request) => {
  const session = await requireSession(req);
  queryOf(req, noParams);
  return json(await dataApiForKey(session.apiKey).getScore({ signal: req.signal }));
});

export const getRanking = withErrors("the competitor ranking", async (req: Request) => {
  const session = await requireSession(req);
  queryOf(req, noParams);
  return json(await dataApiForKey(session.apiKey).getRanking({ signal: req.signal }));
});
