// The one declaration of each page's own URL parameters: the pages that take a query (their
// search-params.ts build their parsers from it, the overview reads its URL through it) and the saved
// views' schema (lib/views/schema.ts), which stores a query only when it holds the page's own
// parameters. A parameter added to a page here is known to both at once; a test fails if a page's
// parsers and this list part ways.
import { RANGE_PRESETS, type RangePresetId } from "@/lib/range/date-range";

const RANGE = ["from", "to", "tz", "range"] as const;
/** The parameters that say a page's range (a relative `range`, or `from`/`to` in `tz`). */
export const RANGE_PARAMS: readonly string[] = RANGE;
// What the changes on a page compare with (lib/range/comparison.ts), on the pages that show changes.
const COMPARE = ["compare", "compare_from", "compare_to"] as const;
// A figure table's order (components/data-table/table-sort.ts): `sort=-visitors` for a page's first
// table, and a parameter of its own for a second one (`city_sort`, `competitor_sort`).

export const PAGE_PARAMS = {
  // `period` is the overview's older way to say a range (proxy.ts sends it on to `from`/`to`).
  // `sort`: conversion by source.
  "/": [...RANGE, ...COMPARE, "period", "sort"],
  "/visitors": ["source", "intent", "converted", ...RANGE, "limit", "offset"],
  // `query` (a question) and `competitor` are filters the dashboard applies itself (lib/lists).
  "/mentions": ["platform", "sentiment", "query", "competitor", ...RANGE, "limit", "offset"],
  // `platform`: the one AI platform sentiment over time shows (all without); `sort`: the platforms'
  // chain; `competitor_sort`: the competitors named with us.
  "/platforms": [...RANGE, ...COMPARE, "platform", "sort", "competitor_sort"],
  "/intelligence": RANGE,
  // `metric` shades the map (visitors or conversion rate); `country` opens that country's top cities;
  // `sort` orders the countries, `city_sort` the cities.
  "/locations": [...RANGE, ...COMPARE, "metric", "country", "sort", "city_sort"],
  "/queries": [...RANGE, "platform", "never_first", "sort"],
} as const satisfies Record<string, readonly string[]>;

export type QueryPage = keyof typeof PAGE_PARAMS;
export type PageParam<P extends QueryPage> = (typeof PAGE_PARAMS)[P][number];

/** Parameters that are where the reader is in a list, not what the view is: never saved. */
export const PAGING_PARAMS: readonly string[] = ["limit", "offset"];

export const isQueryPage = (path: string): path is QueryPage => Object.hasOwn(PAGE_PARAMS, path);

/** The parameters of `page` as parsers of one kind (e.g. nuqs's parseAsString), for a page's search-params.ts. */
export function pageParsers<P extends QueryPage, T>(page: P, parser: T): Record<PageParam<P>, T> {
  return Object.fromEntries(PAGE_PARAMS[page].map((name) => [name, parser])) as Record<PageParam<P>, T>;
}

/**
 * A relative range in a URL: `range=7d` (any header preset: today, 7d, 30d, 90d) without `from`/`to`
 * means that many days ending today in the URL's `tz` (else the viewer's zone), read when the page is
 * opened; proxy.ts turns it into `from`/`to` before the page renders.
 */
export const isRangePresetId = (value: string): value is RangePresetId => RANGE_PRESETS.some((p) => p.id === value);

/**
 * Where an older /mentions link goes: `highlight=<question>` (a row of /queries once marked its
 * question among every mention of the range) is now the filter `query`, so the link opens what it
 * always pointed at, that question's mentions, with the filter named in the URL and on its field.
 * Null without a `highlight`; given a `query` too, the `query` stands and `highlight` is dropped.
 * Other parameters are kept, sorted as the app writes its URLs.
 */
export function legacyHighlightSearch(search: URLSearchParams): string | null {
  if (!search.has("highlight")) return null;
  const next = new URLSearchParams(search);
  const [question] = next.getAll("highlight");
  next.delete("highlight");
  if (!next.has("query") && question?.trim()) next.set("query", question);
  next.sort();
  const text = next.toString();
  return text ? `?${text}` : "";
}
