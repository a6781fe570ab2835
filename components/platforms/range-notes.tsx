// What an insights widget says about its window: while counting, which range it is counting for
// (these answers can take seconds on a Free key); once answered, the window its numbers cover, read
// from the answer, and the range coming next while a newer one loads.
import { SkeletonLines } from "@/components/states/states";
import { formatDateRange, formatZone } from "@/lib/format/format";
import type { DateRange } from "@/lib/range/date-range";
import { previousWindowLabel } from "./platforms-data";

/** What a widget is still waiting for, in words, above its skeleton: these answers can take seconds. */
export function Counting({ range, what, lines }: { range: DateRange; what: string; lines: number }) {
  return (
    <div className="stack">
      <p className="small muted" data-testid="counting">
        Counting {what} for {formatDateRange(range)}…
      </p>
      <SkeletonLines lines={lines} height={22} />
    </div>
  );
}

/**
 * The window an answer covers, from the answer (and, for answers with changes, what they compare
 * with); while a newer range loads, which one is coming.
 */
export function WindowNote({ answer, range, pending, compared = false }: { answer: DateRange; range: DateRange; pending: boolean; compared?: boolean }) {
  return (
    <p className="small muted" data-testid="window">
      {formatDateRange(answer)}, days counted in {formatZone(answer.tz)}
      {compared ? `; changes against ${previousWindowLabel(answer)}.` : "."}
      {pending && <span role="status"> Updating for {formatDateRange(range)}…</span>}
    </p>
  );
}
