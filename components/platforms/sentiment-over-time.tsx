"use client";
// Sentiment over time: per bucket of the range (days, or weeks for long ranges) the positive,
// neutral and negative mentions of all platforms or of one chosen here (kept in the URL as `platform`), as stacked columns against a
// count axis from 0 to a round number at or above the busiest bucket, with its gridlines (plain CSS:
// no chart library for three stacked counts), and the figures as a table under a disclosure: the
// columns' text alternative, readable on a phone too. The team's notes are drawn over the columns (a
// day's note as a line through its column, a span as a band) with their flags, and listed under it;
// a click on a column asks for a note on its first day (components/annotations).
import { parseAsStringLiteral, useQueryState } from "nuqs";
import { useId, useMemo, type MouseEvent } from "react";
import { bucketsOf, dayOfInstant, type NoteMark } from "@/components/annotations/annotation-data";
import { ChartNotes, type ChartNotesView } from "@/components/annotations/chart-notes";
import { NoteFlags } from "@/components/annotations/note-flags";
import notesStyles from "@/components/annotations/annotations.module.css";
import { LABELS, PLATFORMS } from "@/lib/data-api/constants";
import { FiguresTable } from "@/components/ui/figures-table";
import { formatNumber } from "@/lib/format/format";
import type { Platform } from "@/lib/insights/platforms";
import type { SentimentInsight } from "@/lib/insights/sentiment";
import { countAxis, SENTIMENT_LABELS, sentimentColumns } from "./platforms-data";
import styles from "./platforms.module.css";

const KEYS = ["positive", "neutral", "negative"] as const;

/** Where a mark sits over `n` equal columns, as percentages of their row (the 2 px gaps aside). */
const markBox = (mark: NoteMark, n: number) =>
  mark.kind === "line"
    ? { left: `${((mark.first + 0.5) / n) * 100}%` }
    : { left: `${(mark.first / n) * 100}%`, width: `${((mark.last - mark.first + 1) / n) * 100}%` };

/** The notes over the columns: lines and bands (hidden with the drawing) and, outside it, their flags. */
function ColumnNotes({ notes, n }: { notes: ChartNotesView; n: number }) {
  return (
    <div className={`${notesStyles.cssFlags} ${styles.plotNotes}`}>
      <NoteFlags places={notes.marks.map((mark) => ({ mark, left: `${((mark.first + 0.5) / n) * 100}%`, top: "0px", across: (mark.first + 0.5) / n }))} />
    </div>
  );
}

/** The platform the chart shows, kept in the URL (`platform`), so a link or a saved view reopens it; all of them without. */
const platformParam = parseAsStringLiteral(PLATFORMS).withOptions({ history: "replace", scroll: false });

export function SentimentOverTime({ answer }: { answer: SentimentInsight }) {
  const [chosen, setChosen] = useQueryState("platform", platformParam);
  const platform: Platform | "all" = chosen ?? "all";
  const setPlatform = (value: Platform | "all") => void setChosen(value === "all" ? null : value);
  const selectId = useId();
  const columns = sentimentColumns(answer.data, platform, answer.tz);
  const max = Math.max(0, ...columns.map((c) => c.total));
  const axis = countAxis(max);
  const who = platform === "all" ? "all AI platforms" : LABELS[platform];
  const unit = answer.bucket === "week" ? "week (from its first day in the range)" : "day";
  const buckets = useMemo(
    () =>
      bucketsOf(
        answer.data.map((p) => ({ key: p.start, date: dayOfInstant(p.start, answer.tz) })),
        answer.to,
      ),
    [answer],
  );
  /** A click on the columns asks for a note on the day (or week) under the pointer. */
  const pick = (notes: ChartNotesView) => (e: MouseEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const i = Math.floor(((e.clientX - box.left) / box.width) * buckets.length);
    const bucket = buckets[Math.min(buckets.length - 1, Math.max(0, i))];
    if (bucket && box.width > 0) notes.pickDate(bucket.from);
  };
  return (
    <div className="stack" style={{ gap: 12 }}>
      <div className={styles.toolbar}>
        <div className="field" style={{ flexDirection: "row", alignItems: "center", gap: 8 }}>
          <label htmlFor={selectId} className="small">
            Platform
          </label>
          <select
            id={selectId}
            className="select"
            value={platform}
            onChange={(e) => setPlatform(e.target.value as Platform | "all")}
            data-testid="sentiment-platform"
          >
            <option value="all">All AI platforms</option>
            {PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        <ul className={styles.legend} aria-label="Legend">
          {KEYS.map((k) => (
            <li key={k}>
              <span className={`${styles.dot} ${styles[`bar-${k}`]}`} aria-hidden="true" />
              {SENTIMENT_LABELS[k]}
            </li>
          ))}
        </ul>
      </div>
      <ChartNotes range={{ from: answer.from, to: answer.to, tz: answer.tz }} buckets={buckets} subject="sentiment over time">
        {(notes) => (
          <div className={styles.plot}>
            <div aria-hidden="true" className={styles.yAxis} data-testid="sentiment-y-axis">
              <span className={styles.yTitle}>Mentions</span>
              {axis.ticks.map((t) => (
                <span key={t} className={styles.yTick} style={{ bottom: `${(t / axis.top) * 100}%` }} data-testid="sentiment-y-tick">
                  {formatNumber(t)}
                </span>
              ))}
            </div>
            <div aria-hidden="true" className={styles.columns} data-testid="sentiment-columns" onClick={pick(notes)}>
              {axis.ticks.map((t) => (
                <span key={t} className={styles.gridline} style={{ bottom: `${(t / axis.top) * 100}%` }} />
              ))}
              {columns.map((c) => (
                <div
                  key={c.start}
                  className={styles.column}
                  style={{ height: `${(c.total / axis.top) * 100}%` }}
                  title={`${c.label}: ${c.positive} positive, ${c.neutral} neutral, ${c.negative} negative`}
                >
                  {KEYS.map((k) => (c[k] > 0 ? <span key={k} className={styles[`bar-${k}`]} style={{ flex: `${c[k]} 0 0` }} /> : null))}
                </div>
              ))}
              {notes.marks.map((mark) => (
                <span
                  key={`${mark.kind}:${mark.first}:${mark.last}`}
                  className={mark.kind === "line" ? notesStyles.cssLine : notesStyles.cssBand}
                  style={markBox(mark, columns.length)}
                  data-testid={mark.kind === "line" ? "note-line" : "note-band"}
                />
              ))}
            </div>
            <ColumnNotes notes={notes} n={columns.length} />
            <div aria-hidden="true" className={styles.axis}>
              <span>{columns[0]?.label}</span>
              <span>
                busiest {answer.bucket}: {formatNumber(max)} mentions
              </span>
              <span>{columns.at(-1)?.label}</span>
            </div>
          </div>
        )}
      </ChartNotes>
      <FiguresTable
        summary={`Figures per ${answer.bucket}`}
        caption={`Mentions of ${who} by sentiment, per ${unit}`}
        testId="sentiment-table"
        classes={{ summary: "small", table: "table" }}
      >
        <thead>
          <tr>
            <th scope="col">{answer.bucket === "week" ? "Week from" : "Day"}</th>
            {KEYS.map((k) => (
              <th key={k} scope="col">
                {SENTIMENT_LABELS[k]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => (
            <tr key={c.start} data-testid="sentiment-row">
              <th scope="row">{c.label}</th>
              {KEYS.map((k) => (
                <td key={k}>{formatNumber(c[k])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </FiguresTable>
    </div>
  );
}
