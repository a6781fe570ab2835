// React Query options for the analytics of a period: overview metrics, traffic by source, funnel.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { DataApi } from "@/lib/data-api/api";
import type { PeriodParams } from "@/lib/data-api/params";

export const analyticsKeys = {
  all: ["analytics"] as const,
  overview: (params: PeriodParams) => ["analytics", "overview", params] as const,
  traffic: (params: PeriodParams) => ["analytics", "traffic", params] as const,
  funnel: (params: PeriodParams) => ["analytics", "funnel", params] as const,
};

export const overviewQuery = (api: DataApi, params: PeriodParams) =>
  queryOptions({
    queryKey: analyticsKeys.overview(params),
    queryFn: ({ signal }) => api.getOverview(params, { signal }),
    placeholderData: keepPreviousData,
  });

export const trafficQuery = (api: DataApi, params: PeriodParams) =>
  queryOptions({
    queryKey: analyticsKeys.traffic(params),
    queryFn: ({ signal }) => api.getTraffic(params, { signal }),
    placeholderData: keepPreviousData,
  });

export const funnelQuery = (api: DataApi, params: PeriodParams) =>
  queryOptions({
    queryKey: analyticsKeys.funnel(params),
    queryFn: ({ signal }) => api.getFunnel(params, { signal }),
    placeholderData: keepPreviousData,
  });
