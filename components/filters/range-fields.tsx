"use client";
// A list's date fields: the header's range as the list reads it (lib/range/list-range.ts), so the two
// always show the same range. A date applies as typed; an instant from the URL (an overview window)
// shows as its day in the range's zone, with the instant beside it.
import { instantLabel } from "@/components/range/range-labels";
import type { ListRange } from "@/lib/range/list-range";
import { DateField } from "./fields";

type RangeView = {
  values: { from: string | null; to: string | null };
  setFilter: (key: string, value: string) => void;
  errorFor: (param: string) => string | undefined;
  range: ListRange;
};

export function RangeFields({ view, labels }: { view: RangeView; labels: [from: string, to: string] }) {
  const { values, range } = view;
  return (
    <>
      {(["from", "to"] as const).map((end, i) => {
        const instant = range.instants[end];
        const raw = values[end];
        return (
          <DateField
            key={end}
            name={end}
            label={labels[i]!}
            value={raw === null ? "" : instant ? range.range[end] : raw}
            onChange={(v) => view.setFilter(end, v)}
            error={view.errorFor(end) ?? range.problems[end]}
            hint={instant ? `${instantLabel(instant, range.range.tz)} (${range.range.tz})` : undefined}
          />
        );
      })}
    </>
  );
}
