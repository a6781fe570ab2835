"use client";
// The recharts charts, loaded on demand: recharts is the heaviest code of a chart page, and a
// responsive chart cannot draw on the server anyway (it needs its measured width).
import dynamic from "next/dynamic";
import { Skeleton } from "@/components/states/states";

const placeholder = (height: number) => {
  const ChartPlaceholder = () => <Skeleton height={height} />;
  return ChartPlaceholder;
};

export const TrendChart = dynamic(() => import("./trend-chart").then((m) => m.TrendChart), { ssr: false, loading: placeholder(260) });
export const BreakdownChart = dynamic(() => import("./breakdown-chart").then((m) => m.BreakdownChart), { ssr: false, loading: placeholder(220) });
export const ScoreHistoryChart = dynamic(() => import("./history-charts").then((m) => m.ScoreHistoryChart), { ssr: false, loading: placeholder(260) });
export const RankHistoryChart = dynamic(() => import("./history-charts").then((m) => m.RankHistoryChart), { ssr: false, loading: placeholder(260) });
