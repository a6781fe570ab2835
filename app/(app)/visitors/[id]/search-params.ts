// The visitor page's URL: the id (path) and the timeline order (`order=newest|oldest`, default newest).
import { VISITOR_ID_PATTERN } from "@/lib/data-api/constants";

export const ORDERS = ["newest", "oldest"] as const;
export type TimelineOrder = (typeof ORDERS)[number];

export function parseTimelineOrder(value: string | string[] | undefined): TimelineOrder {
  const v = Array.isArray(value) ? value[0] : value;
  return v === "oldest" ? "oldest" : "newest";
}

/** The decoded id when it has the form of a visitor id, else null (shown as "not found"). */
export function parseVisitorId(segment: string): string | null {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return VISITOR_ID_PATTERN.test(id) ? id : null;
}
