// React Query options for AI mentions of the brand.
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { DataApi } from "@/lib/data-api/api";
import type { MentionListParams } from "@/lib/data-api/params";

export const mentionKeys = {
  all: ["mentions"] as const,
  list: (params: MentionListParams) => ["mentions", "list", params] as const,
};

export const mentionListQuery = (api: DataApi, params: MentionListParams) =>
  queryOptions({
    queryKey: mentionKeys.list(params),
    queryFn: ({ signal }) => api.listMentions(params, { signal }),
    placeholderData: keepPreviousData,
  });
