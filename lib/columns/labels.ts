// How the known values of the Data API's open sets read for people, one function per set (sources
// and platforms: sourceLabelOf in lib/data-api/constants). The tables' and cards' cells (badges, the
// timeline) and "CSV for Excel" both call these, so a file says what the screen says ("Perplexity",
// "Problem research"; not `perplexity`, `problem_research`). Each returns undefined for a value this
// dashboard does not know, which every place then shows exactly as sent. Own keys only: an upstream
// "constructor" is an unknown value, not Object.prototype's function.
import { KNOWN_INTENTS, SENTIMENTS } from "@/lib/data-api/constants";
import { humanize } from "@/lib/format/format";

const isOneOf = (set: readonly string[], value: string) => set.includes(value);

/** A known intent: `problem_research` -> "Problem research". */
export const intentLabelOf = (value: string): string | undefined => (isOneOf(KNOWN_INTENTS, value) ? humanize(value) : undefined);

/** A known sentiment: `positive` -> "Positive". */
export const sentimentLabelOf = (value: string): string | undefined => (isOneOf(SENTIMENTS, value) ? humanize(value) : undefined);

const EVENT_LABELS: Record<string, string> = {
  page_view: "Page view",
  ai_referral: "Arrived from an AI platform",
  form_submit: "Form submitted",
  conversion: "Converted",
  return_visit: "Returned",
};

/** A known timeline event type: `form_submit` -> "Form submitted". */
export const eventLabel = (type: string): string | undefined => (Object.hasOwn(EVENT_LABELS, type) ? EVENT_LABELS[type] : undefined);

/** The overview's two groups of sources, AI platforms set apart from the rest. */
export const SOURCE_GROUP_LABELS = { ai: "AI platforms", other: "Other sources" } as const;

/** The group a source is counted in on the overview: `ai` -> "AI platforms". */
export const sourceGroupLabelOf = (group: string): string | undefined =>
  Object.hasOwn(SOURCE_GROUP_LABELS, group) ? SOURCE_GROUP_LABELS[group as keyof typeof SOURCE_GROUP_LABELS] : undefined;

const METRIC_LABELS: Record<string, string> = { visitors: "Visitors", pageviews: "Pageviews", conversions: "Conversions", ai_traffic: "AI traffic" };

/** An overview KPI, as its card names it: `ai_traffic` -> "AI traffic". */
export const metricLabelOf = (metric: string): string | undefined => (Object.hasOwn(METRIC_LABELS, metric) ? METRIC_LABELS[metric] : undefined);
