"use client";
// The comparison in a client component: read from the URL (`compare`, `compare_from`,
// `compare_to`) against the app's range, and set by the header's comparison chooser. Every insights
// widget with changes asks its route with it (`insightsQuery`), so the header's choice reaches every figure.
import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { rangeParams, type DateRange } from "./date-range";
import { comparisonParams, comparisonSearchParams, resolveComparison, type Comparison, type ResolvedComparison } from "./comparison";
import { useDateRange } from "./use-date-range";

export type ComparisonState = ResolvedComparison & {
  range: DateRange;
  /** Puts a comparison in the URL (the previous period removes the parameters: it is the default). */
  setComparison: (comparison: Comparison) => void;
};

export function useComparison(): ComparisonState {
  const { range } = useDateRange();
  const [raw, setRaw] = useQueryStates(comparisonSearchParams, { history: "push" });
  const resolved = useMemo(() => resolveComparison(raw, range), [raw, range]);
  return {
    ...resolved,
    range,
    setComparison: (c) =>
      void setRaw(
        c.kind === "custom"
          ? { compare: "custom", compare_from: c.from, compare_to: c.to }
          : { compare: c.kind === "year" ? "year" : null, compare_from: null, compare_to: null },
      ),
  };
}

/** An insights route's query: the range and the comparison (nothing for the previous period, the routes' default). */
export const insightsQuery = (range: DateRange, comparison: Comparison) => ({ ...rangeParams(range), ...comparisonParams(comparison) });
