// GET /api/mentions and the mention export's rows: the Data API's list as it is, or, with `query` or
// `competitor`, the dashboard's own filter over it (filtered.ts): every mention of the range (and of
// the platform and sentiment asked for) is read, and those kept are the mentions of that question,
// trimmed and case-folded as /queries groups questions (insights/queries.ts `questionKey`), and
// naming that competitor, as the competitors' figures count names (insights/mentions.ts
// `competitorsNamed`), in the list's own order (newest first). So a row of /queries or of the share
// of voice opens exactly the mentions its figure counts. `query` and `competitor` are never sent
// upstream. Without a range the filter reads all time, as the page says it shows, under the same cap.
import "server-only";
import { PAGE_SIZE_MAX } from "@/lib/data-api/constants";
import { mentionPageParams, type MentionPageParams } from "@/lib/data-api/params";
import type { CallOptions } from "@/lib/data-api/api";
import type { Mention } from "@/lib/data-api/schemas";
import { defineRoute, HEAD_COSTS_UPSTREAM } from "@/lib/server/route-types";
import { insightsContext, type InsightsContext } from "@/lib/insights/context";
import { competitorsNamed } from "@/lib/insights/mentions";
import { questionKey } from "@/lib/insights/queries";
import { callOptions, pageOf, readMatching, type FilteredPage, type ListSource, type Matching } from "./filtered";

export type MentionList = FilteredPage<Mention>;

/** The filters of a mention query the Data API has (and is sent); never `query` nor `competitor`. */
type UpstreamMentionFilters = Pick<MentionPageParams, "platform" | "sentiment" | "from" | "to">;
/** What picks the mentions: the Data API's filters and the dashboard's own. */
type MentionFilters = UpstreamMentionFilters & Pick<MentionPageParams, "query" | "competitor">;

export function upstreamMentionFilters(q: UpstreamMentionFilters): UpstreamMentionFilters {
  const { platform, sentiment, from, to } = q;
  return { ...(platform ? { platform } : {}), ...(sentiment ? { sentiment } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** Whether the dashboard filters these mentions itself (a question or a competitor asked for). */
export const filtersMentions = (q: Pick<MentionPageParams, "query" | "competitor">): boolean => q.query !== undefined || q.competitor !== undefined;

/** Which mentions the dashboard's own filters keep. */
export function mentionMatcher(q: Pick<MentionPageParams, "query" | "competitor">): (m: Mention) => boolean {
  const key = q.query === undefined ? null : questionKey(q.query);
  const competitor = q.competitor;
  return (m) => (key === null || questionKey(m.query) === key) && (competitor === undefined || competitorsNamed(m).has(competitor));
}

const NOUN = { singular: "mention", filter: "filter them by question or competitor" };

/** Every mention of the filters, in the list's order (each page of the Data API's list through the key's client, at `priority`). */
export async function matchingMentions(ictx: InsightsContext, q: MentionFilters, priority?: CallOptions["priority"]): Promise<Matching<Mention>> {
  const filters = upstreamMentionFilters(q);
  const source: ListSource<Mention> =
    ({ fresh }) =>
    (offset, signal) =>
      ictx.api.get("/mentions", { query: { ...filters, limit: PAGE_SIZE_MAX, offset } }, callOptions(signal, fresh, priority));
  const { kept, unchecked } = await readMatching(ictx, source, mentionMatcher(q), NOUN, { ranged: Boolean(filters.from || filters.to) });
  kept.sort((a, b) => a.at - b.at);
  return { rows: kept.map((k) => k.row), unchecked };
}

/** The mentions of the filters for a page's requests: identical concurrent ones (any page of the same filters) share one listing. */
function sharedMatchingMentions(apiKey: string, q: MentionFilters, signal: AbortSignal | undefined): Promise<Matching<Mention>> {
  const ictx = insightsContext(apiKey);
  const key = q.query === undefined ? undefined : questionKey(q.query);
  const id = `list:mentions:${JSON.stringify({ ...upstreamMentionFilters(q), query: key, competitor: q.competitor })}`;
  return ictx.state.flights.run(id, (own) => matchingMentions({ ...ictx, signal: own }, q), signal);
}

/** GET /api/mentions: the Data API's mention list, filtered here by `query` and `competitor` when asked. */
export const mentionsRoute = defineRoute(
  {
    access: "session",
    query: mentionPageParams,
    subject: "the mentions",
    headRefused: HEAD_COSTS_UPSTREAM,
    tools: [
      {
        name: "mentions",
        description:
          "Mentions of the brand in AI assistants' answers, newest first: platform, question, position, sentiment, competitors named; filter by platform, sentiment, dates, `query` or `competitor`; `limit` at most 100, `offset` to page.",
      },
    ],
  },
  async ({ api, session, query: q, signal }): Promise<MentionList> => {
    if (!filtersMentions(q)) {
      return api.get("/mentions", { query: { ...upstreamMentionFilters(q), limit: q.limit, offset: q.offset } }, signal ? { signal } : {});
    }
    return pageOf(await sharedMatchingMentions(session.apiKey, q, signal), q.limit, q.offset);
  },
);
