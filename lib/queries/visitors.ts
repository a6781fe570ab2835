// React Query options for visitors: the list, one visitor, and its timeline. Keys start with the
// resource and carry every parameter, so two views never share a cache entry by accident.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { DataApi } from "@/lib/data-api/api";
import type { VisitorListParams } from "@/lib/data-api/params";

export const visitorKeys = {
  all: ["visitors"] as const,
  list: (params: VisitorListParams) => ["visitors", "list", params] as const,
  detail: (id: string) => ["visitors", "detail", id] as const,
  timeline: (id: string) => ["visitors", "timeline", id] as const,
};

export const visitorListQuery = (api: DataApi, params: VisitorListParams) =>
  queryOptions({
    queryKey: visitorKeys.list(params),
    queryFn: ({ signal }) => api.listVisitors(params, { signal }),
    placeholderData: keepPreviousData,
  });

export const visitorQuery = (api: DataApi, id: string) =>
  queryOptions({
    queryKey: visitorKeys.detail(id),
    queryFn: ({ signal }) => api.getVisitor(id, { signal }),
  });

export const visitorTimelineQuery = (api: DataApi, id: string) =>
  queryOptions({
    queryKey: visitorKeys.timeline(id),
    queryFn: ({ signal }) => api.getVisitorTimeline(id, { signal }),
  });
