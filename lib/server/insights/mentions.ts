// The mention side of the insights: every mention created in the days asked for, listed (average
// position and competitors need the rows; there is nothing to count them with) and summed per day
// in the query's zone: per platform the count, sentiment split and known positions; per competitor
// named, the count and sentiment split; the day's total. Days are stored per key (hours once
// closed) and a listing in flight is joined by any request for its days. A mention that cannot be
// placed is reported, never dropped silently from an exact number: without a readable created_at
// (or unreadable as a whole) it is counted against the listing's span; with an unknown or missing
// platform it counts in its day's total but in no platform.
import "server-only";
import { PAGE_SIZE_MAX, PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { ListEnvelope, Mention } from "@/lib/data-api/schemas";
import { finalError } from "../http";
import type { InsightsContext } from "./context";
import { coveringSpan, dayIndexOf, dayKey, listAll, listBounds, listingsFor, readStoredDays, storeDays, trackListing } from "./listing";
import { spanOf, type Day, type DaySpan } from "./range";

export type Sentiments = { positive: number; neutral: number; negative: number };
export type PlatformTally = Sentiments & { mentions: number; positionSum: number; positions: number };
export type CompetitorTally = Sentiments & { name: string; mentions: number };

export type MentionDay = {
  mentions: number;
  /** Of `mentions`: those whose platform is missing or not one of the four. */
  unknownPlatform: number;
  /** PLATFORMS order. */
  platforms: PlatformTally[];
  competitors: CompetitorTally[];
  /** Mentions of the listing this day came from that could not be placed in any day. */
  unplaced?: { span: string; count: number };
};

export type MentionListing = Map<string, MentionDay>;

const DAY = "md:";

const noSentiments = (): Sentiments => ({ positive: 0, neutral: 0, negative: 0 });

/** Adds one to `tally`'s sentiment of `sentiment`, if it is one of the three. */
export function countSentiment(tally: Sentiments, sentiment: string | undefined): void {
  if ((SENTIMENTS as readonly string[]).includes(sentiment ?? "")) tally[sentiment as keyof Sentiments]++;
}

function summarise(span: DaySpan, rows: readonly Mention[], unreadable: number): MentionDay[] {
  const days: MentionDay[] = span.days.map(() => ({
    mentions: 0,
    unknownPlatform: 0,
    platforms: PLATFORMS.map(() => ({ ...noSentiments(), mentions: 0, positionSum: 0, positions: 0 })),
    competitors: [],
  }));
  // Competitor names are upstream data: a Map, so a name like "__proto__" is just a name.
  const named = span.days.map(() => new Map<string, CompetitorTally>());
  let unplaced = unreadable;
  for (const row of rows) {
    const i = row.created_at === undefined ? -1 : dayIndexOf(span.days, Date.parse(row.created_at));
    if (i < 0) {
      unplaced++;
      continue;
    }
    const day = days[i]!;
    day.mentions++;
    const p = PLATFORMS.indexOf(row.platform as (typeof PLATFORMS)[number]);
    if (p < 0) day.unknownPlatform++;
    else {
      const tally = day.platforms[p]!;
      tally.mentions++;
      countSentiment(tally, row.sentiment);
      if (row.position !== undefined) {
        tally.positionSum += row.position;
        tally.positions++;
      }
    }
    for (const name of new Set(row.competitors_mentioned ?? [])) {
      let tally = named[i]!.get(name);
      if (!tally) named[i]!.set(name, (tally = { name, mentions: 0, ...noSentiments() }));
      tally.mentions++;
      countSentiment(tally, row.sentiment);
    }
  }
  days.forEach((d, i) => {
    d.competitors = [...named[i]!.values()];
    if (unplaced > 0) d.unplaced = { span: dayKey(span), count: unplaced };
  });
  return days;
}

const mentionPage = (ictx: InsightsContext, span: DaySpan, offset: number): Promise<ListEnvelope<Mention>> =>
  ictx.api.get("/mentions", { query: { ...listBounds(span), limit: PAGE_SIZE_MAX, offset } });

/** Lists the mentions of `span` (once more if they moved while being read), stores and returns its days. */
function startListing(ictx: InsightsContext, span: DaySpan): Promise<MentionListing> {
  const job = (async () => {
    for (let attempt = 1; ; attempt++) {
      const read = await listAll(await mentionPage(ictx, span, 0), (offset) => mentionPage(ictx, span, offset));
      if (read.exact) {
        const days = summarise(span, read.rows, read.unreadable);
        await storeDays(ictx, DAY, span.days, days);
        return new Map(span.days.map((d, i) => [dayKey(d), days[i]!]));
      }
      if (attempt === 2) {
        throw finalError({
          status: 503,
          code: "listing_changed",
          message: "The mentions changed while they were being read, so their figures could not be exact; try again in a moment.",
          retryAfter: 2,
        });
      }
    }
  })();
  return trackListing(ictx.state.mentionListings, span, job);
}

/** The mention summaries of `days` (consecutive, in order): stored, in flight, or listed now. */
export async function mentionDays(ictx: InsightsContext, days: readonly Day[]): Promise<MentionDay[]> {
  const found = new Map<string, MentionDay>();
  await readStoredDays(ictx, DAY, days, found);
  const missing = days.filter((d) => !found.has(dayKey(d)));
  const inFlight = listingsFor(ictx.state.mentionListings, missing);
  const unlisted = missing.filter((d) => !ictx.state.mentionListings.has(dayKey(d)));
  const jobs = unlisted.length > 0 ? [...inFlight, startListing(ictx, spanOf(coveringSpan(days, unlisted)))] : inFlight;
  for (const listing of await Promise.all(jobs)) for (const [k, v] of listing) found.set(k, v);
  return days.map((d) => found.get(dayKey(d))!);
}

/** How many mentions of `days` could not be placed (each listing's count once) plus those without a known platform. */
export function unplacedMentions(days: readonly MentionDay[], countUnknownPlatform: boolean): number {
  const spans = new Map(days.flatMap((d) => (d.unplaced ? [[d.unplaced.span, d.unplaced.count] as const] : [])));
  const unknown = countUnknownPlatform ? days.reduce((n, d) => n + d.unknownPlatform, 0) : 0;
  return [...spans.values()].reduce((n, c) => n + c, 0) + unknown;
}
