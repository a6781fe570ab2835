// What may be shared and how a link looks, for the server and the browser alike (no zod, no store):
// the five pages that may be shared with the reads each one's widgets make (as /api paths; the shared
// page's routes serve these and nothing else), a password's bounds, and a token's form.
/** The pages a link may share, and the reads each one's widgets make (as /api paths). */
export const SHARED_READS = {
  "/": [
    "/analytics/overview",
    "/analytics/funnel",
    "/intelligence/score",
    "/intelligence/ranking",
    "/insights/trend",
    "/insights/sources",
    "/history/score",
    "/annotations",
  ],
  "/platforms": [
    "/insights/platforms",
    "/insights/sentiment",
    "/insights/competitors",
    "/intelligence/score",
    "/intelligence/ranking",
    "/history/score",
    "/annotations",
  ],
  "/locations": ["/insights/countries"],
  "/queries": ["/insights/queries"],
  "/intelligence": ["/intelligence/score", "/intelligence/ranking", "/history/score", "/history/ranking", "/insights/platforms", "/annotations"],
} as const satisfies Record<string, readonly string[]>;

export type SharedPage = keyof typeof SHARED_READS;

export const SHARED_PAGES = Object.keys(SHARED_READS) as SharedPage[];

export const isSharedPage = (path: string): path is SharedPage => Object.hasOwn(SHARED_READS, path);

/** Each page that may be shared as its title (Settings names a link's page by it). */
export const SHARED_PAGE_TITLES: Record<SharedPage, string> = {
  "/": "Overview",
  "/platforms": "AI platforms",
  "/locations": "Locations",
  "/queries": "Questions",
  "/intelligence": "Intelligence",
};

/** A password's bounds, in characters. */
export const MIN_PASSWORD = 6;
export const MAX_PASSWORD = 128;

/** A token as made (lib/shares/access.ts: 24 random bytes, base64url); anything else opens nothing. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
