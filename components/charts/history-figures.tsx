"use client";
// The history on /intelligence as figures: where the history begins, in words (and which days are
// demo data); the score over time with each component's change over the range, the range named as
// the score card names its window; the rank over time of us and every competitor, each its own line
// named in the legend, with the passings (who passed whom, and when); each chart with its table
// alternative. Days without a snapshot are gaps in the chart and say so in the table. The
// charts themselves are drawn by history-charts.tsx (recharts, loaded on demand).
import { formatChange, formatCount, formatDate, formatNumber, MISSING } from "@/lib/format/format";
import type { RankingHistory, ScoreHistory } from "@/lib/history/routes";
import { FiguresTable } from "@/components/ui/figures-table";
import { bucketsOf } from "@/components/annotations/annotation-data";
import { ChartNotes } from "@/components/annotations/chart-notes";
import { WhenNearViewport } from "./chart-figures";
import styles from "./charts.module.css";
import {
  daysWithSnapshot,
  HISTORY_CHART_HEIGHT,
  keptFromWords,
  passingText,
  rankHistory,
  rankLines,
  SCORE_COLORS,
  SCORE_SERIES,
  scoreDays,
  seriesChanges,
  windowWords,
} from "./history-chart-data";
import { RankHistoryChart, ScoreHistoryChart } from "./lazy-charts";

type Since = Pick<ScoreHistory, "since" | "demo" | "tz">;

/** Where the workspace's history begins, in words, and which of its days are demo data. */
export function HistoryBegins({ history }: { history: Since }) {
  const { since, demo, tz } = history;
  return (
    <p className="small muted" data-testid="history-since">
      {since === null ? (
        <>No history yet: the dashboard keeps the score and the ranking from the first day they are read, one snapshot for each day they are read after that.</>
      ) : (
        <>
          <strong>History since {formatDate(since, tz)}</strong>: the dashboard keeps the score and the ranking from the first day they were read, one snapshot
          for each day they are read; days nobody opened are gaps.
        </>
      )}
      {demo && (
        <>
          {" "}
          <span className="badge" data-testid="demo-history">
            Demo history
          </span>{" "}
          {formatDate(demo.from, tz)} to {formatDate(demo.to, tz)}: the sandbox&apos;s own past, recorded when this demo workspace was first opened.
        </>
      )}
    </p>
  );
}

/** When the range holds no snapshot: why, and what will happen. */
function NoHistory({ history, what }: { history: Since & { from: string; to: string }; what: string }) {
  if (history.since === null) {
    return (
      <div className="state" data-testid="history-empty">
        <p className="state-title">No history yet</p>
        <p className="muted small">
          This is the first time the dashboard reads {what} for this workspace. It keeps what it reads from today on, one snapshot a day while someone opens it,
          so this chart starts filling tomorrow.
        </p>
      </div>
    );
  }
  return (
    <div className="state" data-testid="history-empty">
      <p className="state-title">No snapshot in this range</p>
      <p className="muted small">History begins on {formatDate(history.since, history.tz)}; choose a range that reaches it.</p>
    </div>
  );
}

/** The workspace's very first snapshot is all there is: say when the line begins. */
function FirstSnapshot({ history }: { history: Since & { data: readonly { at: string }[] } }) {
  if (history.data.length !== 1 || history.since !== history.data[0]!.at) return null;
  return (
    <p className="notice small" data-testid="history-first">
      This is the first snapshot the dashboard has of this workspace ({formatDate(history.since, history.tz)}). It keeps one for each day the score is read, so
      a line begins with the next one.
    </p>
  );
}

/** A legend's sample of a line: its colour, ours thicker, and a dashed or dotted one as the chart draws it. */
const LineMark = ({ color, thick, dash }: { color: string; thick?: boolean; dash?: string }) => (
  <span
    className={styles.line}
    style={{ borderTopColor: color, borderTopWidth: thick ? 3 : 2, ...(dash ? { borderTopStyle: dash === "2 3" ? "dotted" : "dashed" } : {}) }}
    aria-hidden="true"
  />
);

/** "12 of 30 days have a snapshot", said once per chart. */
const coverageText = (seen: number, total: number) =>
  seen === total
    ? `Every day of the range has a snapshot (${formatCount(total, "day")}).`
    : `${formatNumber(seen)} of ${formatCount(total, "day")} have a snapshot; the others are gaps.`;

export function ScoreHistoryFigure({ history }: { history: ScoreHistory }) {
  if (history.data.length === 0) return <NoHistory history={history} what="the score" />;
  const days = scoreDays(history);
  const changes = seriesChanges(days);
  const seen = daysWithSnapshot(days);
  // The legend names its window in the words the score card uses for its own ("31 Oct – 29 Nov
  // 2026: 57 → 53"), so a 90-day legend beside the card's 30 days reads as two windows, not two values.
  const window = `${windowWords(history)}${keptFromWords(history, days.find((d) => d.at !== null)?.date ?? null)}`;
  return (
    <div className="stack" style={{ gap: 12 }}>
      <p className="small" style={{ margin: 0 }} data-testid="score-changes-window">
        <strong>{window}:</strong> each from its first kept day to its last
      </p>
      <ul className="legend" aria-label={`Change over ${window}`} data-testid="score-changes">
        {changes.map((c) => (
          <li key={c.key}>
            <LineMark color={SCORE_COLORS[c.key]} thick={c.key === "score"} />
            <span data-testid="score-series-change" data-series={c.key}>
              {c.label}: {formatNumber(c.first)}
              {c.change !== null && (
                <>
                  {" "}
                  → {formatNumber(c.last)} (
                  <span aria-label={formatChange(c.change, "points").label} data-testid="score-change-value">
                    {formatChange(c.change, "points").text}
                  </span>
                  )
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      <FirstSnapshot history={history} />
      <p className="small muted">{coverageText(seen, days.length)}</p>
      <ChartNotes
        range={{ from: history.from, to: history.to, tz: history.tz }}
        buckets={bucketsOf(
          days.map((d) => ({ key: d.date, date: d.date })),
          history.to,
        )}
        subject="the score"
      >
        {(notes) => (
          <WhenNearViewport height={HISTORY_CHART_HEIGHT}>
            <ScoreHistoryChart days={days} notes={notes} />
          </WhenNearViewport>
        )}
      </ChartNotes>
      <FiguresTable
        summary="Show every day as a table"
        caption={`The AI Positioning Score and its components per day, ${days[0]!.label} to ${days.at(-1)!.label}`}
        testId="score-history-table"
        classes={{ details: styles.tableDetails, scroll: styles.tableScroll, table: styles.trendTable }}
      >
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SCORE_SERIES.map((s) => (
              <th scope="col" key={s.key}>
                {s.key === "score" ? "Score" : s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date} data-gap={d.at === null ? "" : undefined}>
              <th scope="row">{d.label}</th>
              {d.at === null ? (
                <td colSpan={SCORE_SERIES.length} className="muted" style={{ textAlign: "left" }}>
                  No snapshot
                </td>
              ) : (
                SCORE_SERIES.map((s) => <td key={s.key}>{formatNumber(d[s.key])}</td>)
              )}
            </tr>
          ))}
        </tbody>
      </FiguresTable>
    </div>
  );
}

export function RankHistoryFigure({ history }: { history: RankingHistory }) {
  if (history.data.length === 0) return <NoHistory history={history} what="the ranking" />;
  const data = rankHistory(history);
  if (data.entrants.length === 0) {
    return (
      <div className="state" data-testid="history-empty">
        <p className="state-title">No competitors tracked yet</p>
        <p className="muted small">
          The rankings kept for this range name nobody; once Workspace Analytics ranks competitors, their ranks and ours show here day by day.
        </p>
      </div>
    );
  }
  const lines = rankLines(data.entrants);
  const seen = daysWithSnapshot(data.days);
  return (
    <div className="stack" style={{ gap: 12 }}>
      <ul className="legend" aria-label="Legend" data-testid="rank-legend">
        {lines.map((l) => (
          <li key={l.name} data-testid="rank-legend-item" data-workspace={l.isWorkspace ? "" : undefined}>
            <LineMark color={l.color} thick={l.isWorkspace} dash={l.dash} /> {l.isWorkspace ? <strong>{l.name} (us)</strong> : l.name}
          </li>
        ))}
      </ul>
      <p className="small muted">Rank 1 is at the top. {coverageText(seen, data.days.length)}</p>
      <ChartNotes
        range={{ from: history.from, to: history.to, tz: history.tz }}
        buckets={bucketsOf(
          data.days.map((d) => ({ key: d.date, date: d.date })),
          history.to,
        )}
        subject="the ranking"
      >
        {(notes) => (
          <WhenNearViewport height={HISTORY_CHART_HEIGHT}>
            <RankHistoryChart days={data.days} lines={lines} rankCount={data.rankCount} notes={notes} />
          </WhenNearViewport>
        )}
      </ChartNotes>
      <div>
        <h3 className="small" style={{ margin: "0 0 0.3rem" }}>
          Who passed whom
        </h3>
        {data.passings.length === 0 ? (
          <p className="small muted" data-testid="passings-none">
            No competitor passed us, and we passed none, in this range.
          </p>
        ) : (
          <ul className="small" data-testid="passings" style={{ margin: 0, paddingLeft: "1.2rem" }}>
            {data.passings.map((p) => (
              <li key={`${p.date}:${p.passer}:${p.passed}`} data-gained={p.weGained ? "" : undefined}>
                {passingText(p)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <FiguresTable
        summary="Show every day's ranks as a table"
        caption={`Rank of us and every competitor per day, ${data.days[0]!.label} to ${data.days.at(-1)!.label}`}
        testId="rank-history-table"
        classes={{ details: styles.tableDetails, scroll: styles.tableScroll, table: styles.trendTable }}
      >
        <thead>
          <tr>
            <th scope="col">Day</th>
            {data.entrants.map((e) => (
              <th scope="col" key={e.name}>
                {e.isWorkspace ? `${e.name} (us)` : e.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.days.map((d) => (
            <tr key={d.date} data-gap={d.at === null ? "" : undefined}>
              <th scope="row">{d.label}</th>
              {d.at === null ? (
                <td colSpan={data.entrants.length} className="muted" style={{ textAlign: "left" }}>
                  No snapshot
                </td>
              ) : (
                data.entrants.map((e) => <td key={e.name}>{d.ranks[e.name] == null ? MISSING : `#${formatNumber(d.ranks[e.name])}`}</td>)
              )}
            </tr>
          ))}
        </tbody>
      </FiguresTable>
    </div>
  );
}
