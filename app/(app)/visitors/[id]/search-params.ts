// The visitor page's URL: the id (path) and the timeline order (`order=newest|oldest`, default
// newest; anything else reads as newest), the order declared once as a nuqs parser.
import { parseAsStringLiteral } from "nuqs/server";
import { VISITOR_ID_PATTERN } from "@/lib/data-api/constants";

const ORDERS = ["newest", "oldest"] as const;
export type TimelineOrder = (typeof ORDERS)[number];

export const visitorSearchParams = {
  // Written even when it is the default, as the order links always did (`?order=newest`).
  order: parseAsStringLiteral(ORDERS).withDefault("newest").withOptions({ clearOnDefault: false }),
};

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
