// A chart's figures as a table under a disclosure, closed at first: the chart's text alternative,
// readable on a phone too (a table wider than its card scrolls sideways on its own). The chart
// gives the table's head and body and, where it has them, its own classes for each part.
import type { ReactNode } from "react";

type Parts = { details?: string; summary?: string; scroll?: string; table?: string };

export function FiguresTable({ summary, caption, testId, classes = {}, children }: { summary: ReactNode; caption: ReactNode; testId: string; classes?: Parts; children: ReactNode }) {
  return (
    <details className={classes.details}>
      <summary className={classes.summary}>{summary}</summary>
      <div className={classes.scroll} style={{ overflowX: "auto" }}>
        <table className={classes.table} data-testid={testId}>
          <caption className="visually-hidden">{caption}</caption>
          {children}
        </table>
      </div>
    </details>
  );
}
