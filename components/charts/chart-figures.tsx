"use client";
// Chart widgets as figures: the drawn chart (recharts, loaded and rendered once the figure is near
// the viewport, so a phone does not pay for charts below the fold before the user scrolls), plus
// the parts that need no chart library and are always there: legend, step list, and a visually
// hidden table that is the chart's text alternative (headed like the card's CSV download, from
// lib/columns).
import { useEffect, useRef, useState, type ReactNode } from "react";
import { FUNNEL_COLUMNS, TRAFFIC_COLUMNS } from "@/lib/columns/analytics";
import { columnOf, type Column } from "@/lib/columns/column";
import { formatChange, formatNumber, formatPercent } from "@/lib/format/format";
import type { BreakdownBar } from "./breakdown-chart-data";
import { funnelChartHeight, type FunnelBar } from "./funnel-chart-data";
import { BreakdownChart, FunnelChart, TrafficChart } from "./lazy-charts";
import { trafficChartHeight, type TrafficChartData } from "./traffic-chart-data";

/** Renders its children once the placeholder comes within 200 px of the viewport. */
function WhenNearViewport({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: "200px 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return (
    <div ref={ref} style={{ minHeight: height }} aria-hidden="true">
      {near ? children : <span className="skeleton" style={{ height, width: "100%" }} data-testid="chart-placeholder" />}
    </div>
  );
}

/** Column headers labelled as the declared columns are (lib/columns). */
function ColumnHeaders<K extends string>({ columns, keys }: { columns: readonly Column<K>[]; keys: readonly K[] }) {
  return keys.map((key) => (
    <th key={key} scope="col">
      {columnOf(columns, key).label}
    </th>
  ));
}

export function TrafficFigure({ data, periodLabel }: { data: TrafficChartData; periodLabel: string }) {
  return (
    <div className="stack" style={{ gap: 12 }}>
      <ul className="legend" aria-label="Legend">
        <li>
          <span className="swatch swatch-ai" aria-hidden="true" /> AI platforms ({formatPercent(data.aiShare)} of visitors)
        </li>
        <li>
          <span className="swatch swatch-other" aria-hidden="true" /> Other sources
        </li>
      </ul>
      <WhenNearViewport height={trafficChartHeight(data.bars.length)}>
        <TrafficChart data={data} />
      </WhenNearViewport>
      <div className="visually-hidden">
        <table>
          <caption>Visitors by traffic source, {periodLabel}</caption>
          <thead>
            <tr>
              <ColumnHeaders columns={TRAFFIC_COLUMNS} keys={["source", "group", "visitors", "percentage", "change"]} />
            </tr>
          </thead>
          <tbody>
            {data.bars.map((b, i) => (
              <tr key={`${i}-${b.source}`}>
                <th scope="row">{b.label}</th>
                <td>{b.group === "ai" ? "AI platform" : "Other source"}</td>
                <td>{formatNumber(b.visitors)}</td>
                <td>{formatPercent(b.percentage)}</td>
                <td>{formatChange(b.change).label}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function FunnelFigure({ bars, periodLabel }: { bars: FunnelBar[]; periodLabel: string }) {
  return (
    <div className="stack" style={{ gap: 12 }}>
      <WhenNearViewport height={funnelChartHeight(bars.length)}>
        <FunnelChart bars={bars} />
      </WhenNearViewport>
      <ol className="funnel-steps" aria-hidden="true">
        {bars.map((b, i) => (
          <li key={`${i}-${b.stage}`}>
            <span className="funnel-step-label">{b.label}</span>
            <span className="funnel-step-count">{formatNumber(b.count)}</span>
            <span className="funnel-step-rate">{i === 0 ? "start" : `${formatPercent(b.stepRate)} of previous`}</span>
          </li>
        ))}
      </ol>
      <div className="visually-hidden">
        <table>
          <caption>Conversion funnel, {periodLabel}</caption>
          <thead>
            <tr>
              <ColumnHeaders columns={FUNNEL_COLUMNS} keys={["label", "count", "stepRate", "overallRate"]} />
            </tr>
          </thead>
          <tbody>
            {bars.map((b, i) => (
              <tr key={`${i}-${b.stage}`}>
                <th scope="row">{b.label}</th>
                <td>{formatNumber(b.count)}</td>
                <td>{formatPercent(b.stepRate)}</td>
                <td>{formatPercent(b.overallRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
