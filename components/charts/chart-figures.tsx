"use client";
// Chart widgets as figures: the drawn chart (recharts, loaded and rendered once the figure is near
// the viewport or the browser is idle, so a phone's first paint does not wait for charts below the
// fold), plus the parts that need no chart library and are always there: legend, summary, and a
// table that is the chart's text alternative.
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { bucketsOf, dayOfInstant } from "@/components/annotations/annotation-data";
import { ChartNotes } from "@/components/annotations/chart-notes";
import { formatNumber, MISSING } from "@/lib/format/format";
import type { BreakdownBar } from "./breakdown-chart-data";
import { FiguresTable } from "@/components/ui/figures-table";
import styles from "./charts.module.css";
import { BreakdownChart, TrendChart } from "./lazy-charts";
import { TREND_CHART_HEIGHT, TREND_METRICS, trendSeries, type TrendChartData, type TrendMetric, type TrendSeriesPoint } from "./trend-chart-data";

/** How long a chart below the fold waits for the browser to be idle before it is drawn anyway. */
export const IDLE_DRAW_TIMEOUT_MS = 2_000;

/**
 * Renders its children once the placeholder comes within 200 px of the viewport, or once the browser
 * is idle, whichever is first. Near the viewport alone left a chart below the fold a grey block
 * until someone scrolled to it: in a full-page capture, a print, or for anyone reading the page from
 * the top. Idle still lets the first paint and the charts in view go first.
 */
export function WhenNearViewport({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const show = () => setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && show(), { rootMargin: "200px 0px" });
    observer.observe(el);
    // Safari has no requestIdleCallback: a timer stands in for it there.
    const idle = typeof requestIdleCallback === "function" ? requestIdleCallback(show, { timeout: IDLE_DRAW_TIMEOUT_MS }) : undefined;
    const timer = idle === undefined ? setTimeout(show, IDLE_DRAW_TIMEOUT_MS) : undefined;
    return () => {
      observer.disconnect();
      if (idle !== undefined) cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, [near]);
  return (
    <div ref={ref} style={{ minHeight: height }} aria-hidden="true">
      {near ? children : <span className="skeleton" style={{ height, width: "100%" }} data-testid="chart-placeholder" />}
    </div>
  );
}

export function BreakdownFigure({ bars }: { bars: BreakdownBar[] }) {
  return (
    <div className="stack" style={{ gap: 8 }}>
      <WhenNearViewport height={220}>
        <BreakdownChart bars={bars} />
      </WhenNearViewport>
      <div className="visually-hidden">
        <table>
          <caption>Score components, each out of 100</caption>
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col">Score</th>
              <th scope="col">Measures</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.key}>
                <th scope="row">{b.label}</th>
                <td>{formatNumber(b.value)}</td>
                <td>{b.help}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The trend over the range: a metric switcher (visitors, AI visitors, conversions), the chart of the
 * chosen one with the previous period behind it, a spoken summary of it, and every bucket of every
 * metric as a table anyone can open.
 */
export function TrendFigure({
  data,
  windowLabel,
  previousLabel,
  previousName = "Previous period",
}: {
  data: TrendChartData;
  windowLabel: string;
  previousLabel: string;
  /** What the window drawn behind is (the header's comparison): "Previous period", "Same days a year before", "Chosen window". */
  previousName?: string;
}) {
  const [metric, setMetric] = useState<TrendMetric>("visitors");
  const metricLabel = TREND_METRICS.find((m) => m.key === metric)!.label;
  const unit = data.bucket === "week" ? "week" : "day";
  const points = trendSeries(data, metric);
  const buckets = useMemo(
    () =>
      bucketsOf(
        data.rows.map((r) => ({ key: r.label, date: dayOfInstant(r.start, data.tz) })),
        data.to,
      ),
    [data],
  );
  const peak = points.reduce<TrendSeriesPoint | undefined>((best, p) => (best === undefined || p.current > best.current ? p : best), undefined);
  const totals = data.totals;
  const inProgress = data.rows.find((r) => r.inProgress);
  const soFarLabel = unit === "week" ? "This week so far" : "Today so far";
  return (
    <div className="stack" style={{ gap: 12 }}>
      <div className={styles.trendBar}>
        <div className="segmented" role="group" aria-label="Metric drawn">
          {TREND_METRICS.map((m) => (
            <button key={m.key} type="button" aria-pressed={m.key === metric} onClick={() => setMetric(m.key)}>
              {m.label}
            </button>
          ))}
        </div>
        <ul className="legend" aria-label="Legend">
          <li>
            <span className={`${styles.line} ${styles.lineCurrent}`} aria-hidden="true" /> {windowLabel}
          </li>
          {inProgress && (
            <li data-testid="trend-in-progress">
              <span className={`${styles.line} ${styles.lineInProgress}`} aria-hidden="true" /> {soFarLabel} ({inProgress.label}, still counting)
            </li>
          )}
          <li>
            <span className={`${styles.line} ${styles.linePrevious}`} aria-hidden="true" /> {previousName}, {previousLabel}
          </li>
        </ul>
      </div>
      <p className="visually-hidden" data-testid="trend-summary" aria-live="polite">
        {metricLabel} per {unit}, {windowLabel}: {formatNumber(totals.current[metric])} in total against {formatNumber(totals.previous[metric])} in{" "}
        {previousLabel}
        {peak ? `; most on ${peak.label} (${formatNumber(peak.current)})` : ""}
        {inProgress ? `; ${inProgress.label} is still counting` : ""}.
      </p>
      <ChartNotes range={{ from: data.from, to: data.to, tz: data.tz }} buckets={buckets} subject="the trend">
        {(notes) => (
          <WhenNearViewport height={TREND_CHART_HEIGHT}>
            <TrendChart points={points} metricLabel={metricLabel} notes={notes} previousName={previousName} />
          </WhenNearViewport>
        )}
      </ChartNotes>
      <FiguresTable
        summary={`Show every ${unit} as a table`}
        caption={`Visitors, AI visitors and conversions per ${unit}, ${windowLabel}, with the ${previousName.toLowerCase()} (${previousLabel})`}
        testId="trend-table"
        classes={{ details: styles.tableDetails, scroll: styles.tableScroll, table: styles.trendTable }}
      >
        <thead>
          <tr>
            <th scope="col">{unit === "week" ? "Week" : "Day"}</th>
            {TREND_METRICS.map((m) => (
              <th scope="col" key={m.key}>
                {m.label}
              </th>
            ))}
            <th scope="col">{previousName}</th>
            {TREND_METRICS.map((m) => (
              <th scope="col" key={m.key}>
                {m.label} then
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={r.start}>
              <th scope="row">{r.inProgress ? `${r.label} (so far)` : r.notStarted ? `${r.label} (to come)` : r.label}</th>
              {TREND_METRICS.map((m) => (
                <td key={m.key}>{formatNumber(r.current[m.key])}</td>
              ))}
              <td>{r.previousLabel ?? MISSING}</td>
              {TREND_METRICS.map((m) => (
                <td key={m.key}>{formatNumber(r.previous?.[m.key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </FiguresTable>
    </div>
  );
}
