"use client";
// A list's date fields: the header's range as the list reads it (lib/range/list-range.ts), so the two
// always show the same range. A date applies as typed; an instant from the URL (an overview window)
// shows as its day in the range's zone, with the instant beside it.
import { formatDateTime, formatZone } from "@/lib/format/format";
import type { ListRange } from "@/lib/range/list-range";
import { rangeProblemText } from "@/lib/ui/messages";
import { DateField } from "./fields";

/** What the fields read of a list view (useListFilters). */
type RangeView = {
  field: (name: string) => { name: string; value: string; error?: string; onChange: (value: string) => void };
  range: ListRange;
};

export function RangeFields({ view, labels }: { view: RangeView; labels: [from: string, to: string] }) {
  const { range } = view;
  return (
    <>
      {(["from", "to"] as const).map((end, i) => {
        const instant = range.instants[end];
        const bound = view.field(end);
        return (
          <DateField
            key={end}
            {...bound}
            label={labels[i]!}
            value={instant ? range.range[end] : bound.value}
            error={range.problems[end] ? rangeProblemText(end, range.problems[end]) : bound.error}
            hint={instant ? `${formatDateTime(instant, range.range.tz)} (${formatZone(range.range.tz)})` : undefined}
          />
        );
      })}
    </>
  );
}
