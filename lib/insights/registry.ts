// The insights' registry of day summarisers: every dimension of a Data API list the insights read
// (the visitors by day and by country, the mentions by day and by question) registers here as its
// module loads (`export const COUNTRY_DAYS = registerDimension({...})`), and every listing of that
// list folds them all, whichever route asked for it. So the overview's listing of the visitors also
// summarises them by country, and /insights/countries asked later reads those days from the store
// without a listing of its own. A leaf: it imports types only, so a summariser can register without
// importing the listings that use it; summarisers.ts loads every summariser's module, before any
// insights context exists (context.ts).
import type { Dimension, ListedResource } from "./types";

const byResource = new Map<string, ReadonlyArray<Dimension<unknown>>>();

/** Registers `dimension` with its list: every later listing of that list folds it. */
export function registerDimension<Row, Tally, Summary>(dimension: Dimension<Row, Tally, Summary>): Dimension<Row, Tally, Summary> {
  const noun = dimension.resource.noun;
  const all = byResource.get(noun) ?? [];
  if (all.some((d) => d.key === dimension.key)) throw new Error(`insights: a ${noun} dimension keyed ${dimension.key} is registered twice`);
  // One array per list, its rows' type forgotten: dimensionsOf gives them back by the list's own type.
  byResource.set(noun, [...all, dimension as unknown as Dimension<unknown>]);
  return dimension;
}

/** Every dimension registered for `resource`'s list, in the order they registered. */
export function dimensionsOf<Row>(resource: ListedResource<Row>): ReadonlyArray<Dimension<Row>> {
  return (byResource.get(resource.noun) ?? []) as unknown as ReadonlyArray<Dimension<Row>>;
}

/** The keys of every dimension registered for the list called `noun` (what a kept day of it is kept under). */
export function dimensionKeysOf(noun: string): string[] {
  return (byResource.get(noun) ?? []).map((d) => d.key);
}
