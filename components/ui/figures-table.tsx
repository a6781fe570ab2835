// A chart's figures as a table under a disclosure, closed at first: the chart's text alternative,
// readable on a phone too (a table wider than its card scrolls sideways on its own). The chart
// gives the table's head and body and, where it has them, its own classes for each part.
import { useId, type ReactNode } from "react";

type Parts = { details?: string; summary?: string; scroll?: string; table?: string };

export function FiguresTable({
  summary,
  caption,
  testId,
  classes = {},
  children,
}: {
  summary: ReactNode;
  caption: ReactNode;
  testId: string;
  classes?: Parts;
  children: ReactNode;
}) {
  const captionId = useId();
  return (
    <details className={classes.details}>
      <summary className={classes.summary}>{summary}</summary>
      {/* Focusable, so a keyboard can scroll a table wider than the screen; named by its caption. */}
      <div className={classes.scroll} style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-labelledby={captionId}>
        <table className={classes.table} data-testid={testId}>
          <caption id={captionId} className="visually-hidden">
            {caption}
          </caption>
          {children}
        </table>
      </div>
    </details>
  );
}
