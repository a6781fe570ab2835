// Maps the score's four breakdown components onto chart bars, in a fixed order, with a label and a
// note for a component the upstream left out (shown as missing, not as 0).
import type { Score } from "@/lib/data-api/schemas";

export const COMPONENTS = [
  { key: "visibility", label: "Visibility", help: "How often AI answers mention the brand" },
  { key: "sentiment", label: "Sentiment", help: "How favourably they talk about it" },
  { key: "authority", label: "Authority", help: "How much they rely on the brand as a source" },
  { key: "coverage", label: "Coverage", help: "How many relevant topics it appears in" },
] as const;

export type BreakdownBar = { key: string; label: string; help: string; value: number | null };

export function toBreakdownData(score: Pick<Score, "breakdown">): BreakdownBar[] {
  return COMPONENTS.map((c) => {
    const v = score.breakdown?.[c.key];
    return { key: c.key, label: c.label, help: c.help, value: typeof v === "number" && Number.isFinite(v) ? v : null };
  });
}
