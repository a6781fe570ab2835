// The mention side of the insights: every mention created in the days asked for, listed (average
// position and competitors need the rows; there is nothing to count them with) and summed per day
// in the query's zone: per platform the count, sentiment split and known positions; per competitor
// named, the count and sentiment split; the day's total. Days are stored per key (hours once
// closed) and a listing in flight is joined by any request for its days. A mention that cannot be
// placed is reported, never dropped silently from an exact number: without a readable created_at
// (or unreadable as a whole) it is counted against the listing's span; with an unknown or missing
// platform it counts in its day's total but in no platform. The listing is the shared pipeline of
// listing.ts with the mention-day summariser below; one whose total is over the listing cap
// (INSIGHTS_MAX_LISTED_ROWS) is refused with a 422 saying so, as nothing else could answer.
import "server-only";
import type { SharedRun } from "@/lib/data-api/cache";
import { PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { Mention } from "@/lib/data-api/schemas";
import { formatCount, formatDateRange, formatNumber } from "@/lib/format/format";
import { finalError } from "../http";
import type { InsightsContext } from "./context";
import { coveringSpan, dayKey, isEmptySpan, joinAll, listDays, listingsFor, MENTIONS, readStoredDays, shareListing, storeDays, type DaySummariser } from "./listing";
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

/** A day's mentions while they arrive: competitor names are upstream data, so a Map ("__proto__" is just a name). */
type MentionTally = Omit<MentionDay, "competitors" | "unplaced"> & { named: Map<string, CompetitorTally> };

const emptyTally = (): MentionTally => ({
  mentions: 0,
  unknownPlatform: 0,
  platforms: PLATFORMS.map(() => ({ ...noSentiments(), mentions: 0, positionSum: 0, positions: 0 })),
  named: new Map(),
});

/**
 * Mentions per day: per platform the count, sentiment split and known positions; per competitor
 * named, the count and sentiment split; the day's total. Lenient: a mention without a readable
 * created_at is counted as unplaced and reported, never dropped silently.
 */
export const MENTION_DAYS: DaySummariser<Mention, MentionTally, MentionDay> = {
  resource: MENTIONS,
  strict: false,
  empty: emptyTally,
  add(day, row) {
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
      let tally = day.named.get(name);
      if (!tally) day.named.set(name, (tally = { name, mentions: 0, ...noSentiments() }));
      tally.mentions++;
      countSentiment(tally, row.sentiment);
    }
    return true;
  },
  finish: ({ named, ...day }) => ({ ...day, competitors: [...named.values()] }),
};

/** Lists the mentions of `span` (once more if they moved while being read), stores its days; joined by later requests for its days while it runs. */
function startListing(ictx: InsightsContext, span: DaySpan): SharedRun<MentionListing> {
  return shareListing(ictx.state.mentionListings, span, async (signal) => {
    const own: InsightsContext = { ...ictx, signal };
    for (let attempt = 1; ; attempt++) {
      // The second read asks the Data API itself: the short response cache still holds the pages
      // of the first, which would only move the same way again.
      const read = await listDays(own, span, MENTION_DAYS, { fresh: attempt > 1 });
      if (read.kind === "too_large") {
        // There is no other way to these figures (nothing counts positions or competitors).
        throw finalError({
          status: 422,
          code: "listing_too_large",
          message: `The Data API has ${formatCount(read.total, "mention")} in ${formatDateRange({ from: span.days[0]!.date, to: span.days.at(-1)!.date })}, more than the ${formatNumber(read.max)} the insights read for one answer. Choose a shorter range.`,
        });
      }
      if (read.kind === "unsummable") throw new Error("A lenient summariser never stops a listing.");
      if (read.total === undefined) {
        throw finalError({ status: 502, code: "unexpected_response", message: "The Data API did not say how many mentions there are, so their figures cannot be checked." });
      }
      if (read.exact) {
        const days = read.days.map((d) => (read.unplaced > 0 ? { ...d, unplaced: { span: dayKey(span), count: read.unplaced } } : d));
        await storeDays(own, DAY, span.days, days);
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
  });
}

/** The mention summaries of `days` (consecutive, in order): stored, in flight, or listed now. */
export async function mentionDays(ictx: InsightsContext, days: readonly Day[]): Promise<MentionDay[]> {
  // A day the zone skipped has no instant, so no mention: known without asking.
  const found = new Map<string, MentionDay>(days.filter(isEmptySpan).map((d) => [dayKey(d), MENTION_DAYS.finish(emptyTally())]));
  await readStoredDays(ictx, DAY, days, found);
  let missing = days.filter((d) => !found.has(dayKey(d)));
  if (missing.some((d) => !ictx.state.mentionListings.has(dayKey(d)))) {
    // A listing may have stored these days and ended while the store was read: read once more
    // before listing them a second time.
    await readStoredDays(ictx, DAY, missing, found);
    missing = missing.filter((d) => !found.has(dayKey(d)));
  }
  const inFlight = listingsFor(ictx.state.mentionListings, missing);
  const unlisted = missing.filter((d) => !ictx.state.mentionListings.has(dayKey(d)));
  const runs = unlisted.length > 0 ? [...inFlight, startListing(ictx, spanOf(coveringSpan(days, unlisted)))] : inFlight;
  for (const listing of await joinAll(runs, ictx.signal)) for (const [k, v] of listing) found.set(k, v);
  return days.map((d) => found.get(dayKey(d))!);
}

/** How many mentions of `days` could not be placed (each listing's count once) plus those without a known platform. */
export function unplacedMentions(days: readonly MentionDay[], countUnknownPlatform: boolean): number {
  const spans = new Map(days.flatMap((d) => (d.unplaced ? [[d.unplaced.span, d.unplaced.count] as const] : [])));
  const unknown = countUnknownPlatform ? days.reduce((n, d) => n + d.unknownPlatform, 0) : 0;
  return [...spans.values()].reduce((n, c) => n + c, 0) + unknown;
}
