// The intent filter's choices (intent is an open set: sandbox/README.md "Settled unknowns"): the known intents with
// readable labels, then any other value seen in the rows on screen, shown as sent; free text is
// accepted besides.
import { KNOWN_INTENTS } from "@/lib/data-api/constants";
import { humanize } from "@/lib/format/format";

export type Choice = { value: string; label: string };

const INTENT_LABELS: Record<(typeof KNOWN_INTENTS)[number], string> = {
  problem_research: "Researching a problem",
  solution_comparison: "Comparing solutions",
  brand_search: "Searching for the brand",
  pricing_research: "Researching pricing",
  support: "Looking for support",
  unknown: "Unknown intent",
};

export function intentLabel(value: string): string {
  return Object.hasOwn(INTENT_LABELS, value) ? INTENT_LABELS[value as keyof typeof INTENT_LABELS] : humanize(value);
}

export function intentChoices(seen: ReadonlyArray<string | null | undefined> = []): Choice[] {
  const values = new Set<string>(KNOWN_INTENTS);
  for (const v of seen) if (typeof v === "string" && v) values.add(v);
  return [...values].map((value) => ({ value, label: intentLabel(value) }));
}
