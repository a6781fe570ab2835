// The mention side of the insights: every mention created in the days asked for, listed (average
// position and competitors need the rows; there is nothing to count them with) and summed per day
// in the query's zone: per platform the count, sentiment split and known positions; per competitor
// named, the count and sentiment split; the day's total. It is one dimension of the mention list
// (dimensions.ts), read through `dimensionDays`: stored per key (hours once closed), joined while a
// listing is in flight, else listed (once more, fresh, if the mentions moved while being read;
// then a 503 `listing_changed`; over the listing cap, a 422 `listing_too_large`). A mention that
// cannot be placed is reported, never dropped silently from an exact number: without a readable
// created_at (or unreadable as a whole) it is counted against the listing's span; with an unknown
// or missing platform it counts in its day's total but in no platform.
import "server-only";
import { PLATFORMS, SENTIMENTS } from "@/lib/data-api/constants";
import type { Mention } from "@/lib/data-api/schemas";
import type { InsightsContext } from "./types";
import { dimensionDays, unplacedRows } from "./dimensions";
import { MENTIONS } from "./listing";
import { registerDimension } from "./registry";
import type { DayEntry } from "./types";
import type { Day } from "./range";

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
};

const noSentiments = (): Sentiments => ({ positive: 0, neutral: 0, negative: 0 });

/** Adds one to `tally`'s sentiment of `sentiment`, if it is one of the three. */
export function countSentiment(tally: Sentiments, sentiment: string | undefined): void {
  if ((SENTIMENTS as readonly string[]).includes(sentiment ?? "")) tally[sentiment as keyof Sentiments]++;
}

/** A mention's position when it is one (1 is named first); a missing, zero or negative one is unknown. */
export const knownPosition = (row: Mention): number | undefined => (row.position !== undefined && row.position >= 1 ? row.position : undefined);

/**
 * The competitors a mention names, each once (a name listed twice is one mention of it), exactly as
 * sent: what the competitors' figures count, and what /mentions filters by `competitor`.
 */
export const competitorsNamed = (row: Mention): ReadonlySet<string> => new Set(row.competitors_mentioned ?? []);

/** A day's mentions while they arrive: competitor names are upstream data, so a Map ("__proto__" is just a name). */
type MentionTally = Omit<MentionDay, "competitors"> & { named: Map<string, CompetitorTally> };

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
export const MENTION_DAYS = registerDimension<Mention, MentionTally, MentionDay>({
  key: "md2:",
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
      const position = knownPosition(row);
      if (position !== undefined) {
        tally.positionSum += position;
        tally.positions++;
      }
    }
    for (const name of competitorsNamed(row)) {
      let tally = day.named.get(name);
      if (!tally) day.named.set(name, (tally = { name, mentions: 0, ...noSentiments() }));
      tally.mentions++;
      countSentiment(tally, row.sentiment);
    }
    return true;
  },
  finish: ({ named, ...day }) => ({ ...day, competitors: [...named.values()] }),
});

/** The mention summaries of `days` (any order; answered in that order), with the rows their listings could not place. */
export async function mentionDays(ictx: InsightsContext, days: readonly Day[]): Promise<Array<DayEntry<MentionDay>>> {
  return dimensionDays(ictx, MENTION_DAYS, days);
}

/** How many mentions of `days` could not be placed (each listing's count once) plus those without a known platform. */
export function unplacedMentions(days: ReadonlyArray<DayEntry<MentionDay>>, countUnknownPlatform: boolean): number {
  const unknown = countUnknownPlatform ? days.reduce((n, d) => n + d.summary.unknownPlatform, 0) : 0;
  return unplacedRows(days) + unknown;
}
