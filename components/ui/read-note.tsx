"use client";
// When an insight's figures were read, where it matters (the overview, /locations, /queries): the
// closed days are kept by the dashboard (answered from its store, checked again while a week young),
// and today is read from the Data API when the answer came, so the note says how long ago: "Figures
// up to 28 Nov 2026 kept; today read 2 minutes ago". Rendered once the page has hydrated (the time
// since is the browser's), on the page's one clock for relative times.
import { formatDay } from "@/lib/format/format";
import { addDays, todayIn } from "@/lib/range/calendar";
import { usePageNow } from "./date-time";

/** The note for an answer over `from`..`to` in `tz`, read at `readAt`, at `now` (epoch ms). */
export function readNoteText(answer: { from: string; to: string; tz: string }, readAt: number, now: number): string {
  const today = todayIn(answer.tz, now);
  if (answer.to < today) return "Figures of closed days, kept by the dashboard";
  const minutes = Math.max(0, Math.floor((now - readAt) / 60_000));
  const ago = minutes === 0 ? "less than a minute ago" : minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
  if (answer.from >= today) return `Today read ${ago}`;
  return `Figures up to ${formatDay(addDays(today, -1))} kept; today read ${ago}`;
}

export function ReadNote({ answer, readAt, className }: { answer: { from: string; to: string; tz: string }; readAt: number; className?: string }) {
  // The page's clock: null while the server renders and the page hydrates (the note then waits).
  const now = usePageNow();
  if (now === null || readAt === 0) return null;
  return (
    <p className={className} data-testid="read-note">
      {readNoteText(answer, readAt, now.getTime())}
    </p>
  );
}
