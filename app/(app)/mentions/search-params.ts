// The mentions view's URL: platform, sentiment, from, to, limit, offset (the Data API's names).
import { mentionListParams, parseQuery, type MentionListParams, type ParseResult, type QueryInput } from "@/lib/data-api/params";
import { toRawSearch, type RawSearch } from "@/lib/ui/search-url";

export type MentionsSearch = { raw: RawSearch; result: ParseResult<MentionListParams> };

const FIELDS = ["platform", "sentiment", "from", "to", "limit", "offset"] as const;

export function parseMentionsSearch(input: Record<string, string | string[] | undefined>): MentionsSearch {
  const raw = toRawSearch(input);
  const known: RawSearch = {};
  for (const f of FIELDS) if (raw[f] !== undefined) known[f] = raw[f];
  return { raw: known, result: parseQuery(mentionListParams, input as QueryInput) };
}

