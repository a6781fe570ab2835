"use client";
// The workspace's activity list in the browser (GET /api/workspace/activity), under the workspace's
// key family (["workspace", "activity"]): what refreshes the workspace's settings (watching, a key
// linked) refreshes it too, and the alerts' writes refresh it (lib/queries/alerts.ts).
import { useQuery } from "@tanstack/react-query";
import type { ActivityJson } from "@/lib/activity/actions";
import { getJson } from "./api";

export type { ActivityJson };

export const ACTIVITY_KEY = ["workspace", "activity"] as const;

export const useActivity = () =>
  useQuery({ queryKey: ACTIVITY_KEY, queryFn: async ({ signal }) => (await getJson<{ data: ActivityJson[] }>("/api/workspace/activity", { signal })).data });
