// React Query options for the AI Positioning Score and the competitor ranking (no parameters).
import { queryOptions } from "@tanstack/react-query";
import type { DataApi } from "@/lib/data-api/api";

export const intelligenceKeys = {
  all: ["intelligence"] as const,
  score: () => ["intelligence", "score"] as const,
  ranking: () => ["intelligence", "ranking"] as const,
};

export const scoreQuery = (api: DataApi) =>
  queryOptions({
    queryKey: intelligenceKeys.score(),
    queryFn: ({ signal }) => api.getScore({ signal }),
  });

export const rankingQuery = (api: DataApi) =>
  queryOptions({
    queryKey: intelligenceKeys.ranking(),
    queryFn: ({ signal }) => api.getRanking({ signal }),
  });
