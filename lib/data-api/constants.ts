// Value sets of the Data API (its documentation, and the settled unknowns of sandbox/README.md). One place, used by the
// query schemas, the UI's filter controls and the charts.

export const SOURCES = ["chatgpt", "claude", "perplexity", "gemini", "organic", "direct", "paid", "social", "referral"] as const;
export type Source = (typeof SOURCES)[number];

/** The AI platforms, in the order every page lists them (lib/format's PLATFORM_ORDER). */
export const PLATFORMS = ["chatgpt", "claude", "perplexity", "gemini"] as const;

/** Sources that are AI platforms (the same four, in the same order); the UI sets them apart from the rest. */
export const AI_SOURCES = PLATFORMS satisfies readonly Source[];
export const isAiSource = (s: string): boolean => (AI_SOURCES as readonly string[]).includes(s);

/**
 * `source=ai` on /visitors: the four AI platforms' visitors as one list. A value of the dashboard,
 * not of the Data API (whose list filters one source at a time): the dashboard lists each platform
 * and merges them, and never sends it upstream.
 */
export const AI_SOURCE_GROUP = "ai";

export const SENTIMENTS = ["positive", "neutral", "negative"] as const;

export const PERIODS = ["24h", "7d", "30d", "90d"] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = "30d";

/** Intent is an open set (sandbox/README.md "Settled unknowns"): these are the values known today; any snake_case value is accepted. */
export const KNOWN_INTENTS = ["problem_research", "solution_comparison", "brand_search", "pricing_research", "support", "unknown"] as const;

export const TIMELINE_EVENT_TYPES = ["page_view", "ai_referral", "form_submit", "conversion", "return_visit"] as const;

/** Insights' buckets: whole days, or ISO weeks (Monday first) clipped to the range. */
export const INSIGHT_BUCKETS = ["day", "week"] as const;
export type InsightBucket = (typeof INSIGHT_BUCKETS)[number];

/** What an insight's changes are measured against: the previous period, the same dates a year before, or a window chosen. */
export const INSIGHT_COMPARISONS = ["previous", "year", "custom"] as const;
export type InsightComparison = (typeof INSIGHT_COMPARISONS)[number];
/** The longest insights range, in days (its previous period doubles what is read). */
export const INSIGHTS_MAX_DAYS = 366;
/** The range when `from`/`to` are omitted: this many days ending today (in `tz`). */
export const INSIGHTS_DEFAULT_DAYS = 30;
/** The longest range that `bucket` omitted shows by day; longer ones by week. */
export const INSIGHTS_DAY_BUCKETS_MAX_DAYS = 31;
/**
 * The longest range `bucket=day` is accepted for: its figures per bucket and period are counted one
 * by one where listing costs more, so 92 days (184 buckets with the previous period) bound a
 * request's upstream calls; a longer range by day is a 400 naming `bucket`.
 */
export const INSIGHTS_DAY_BUCKETS_LIMIT_DAYS = 92;
/**
 * Default of INSIGHTS_MAX_LISTED_ROWS: the most rows one insights listing reads (1,000 pages: a
 * minute of a Pro key's budget, ten of a Free key's).
 */
export const DEFAULT_INSIGHTS_MAX_LISTED_ROWS = 100_000;

/** The longest question /mentions' `query` takes (a link of /queries carries one; far beyond any real question). */
export const QUERY_PARAM_MAX = 1000;
/** The longest name /mentions' `competitor` takes: the longest a mention's `competitors_mentioned` keeps (lenient-fields' TOKEN_MAX). */
export const COMPETITOR_PARAM_MAX = 200;

export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;
/** Upper bound on offset accepted by this app: far beyond any workspace, small enough to stay an integer. */
export const OFFSET_MAX = 10_000_000;

export const VISITOR_ID_PATTERN = /^vis_[A-Za-z0-9_-]{1,64}$/;

export const LABELS: Record<string, string> = {
  chatgpt: "ChatGPT",
  perplexity: "Perplexity",
  claude: "Claude",
  gemini: "Gemini",
  organic: "Organic search",
  direct: "Direct",
  paid: "Paid",
  social: "Social",
  referral: "Referral",
};

/**
 * The label of a known source or platform; undefined for any other value. Own keys only, so an
 * upstream value such as "constructor" is an unknown value, not Object.prototype's function.
 */
export const sourceLabelOf = (value: string): string | undefined => (Object.hasOwn(LABELS, value) ? LABELS[value] : undefined);
