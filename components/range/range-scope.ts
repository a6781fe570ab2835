// Which pages the header's date range drives, and what the others say in its place. The range drives
// the overview, the lists, /platforms and /intelligence (its history: the score and the ranks over
// the range; the current score and what moved with it say their own window on the page). On a page it does not drive, a range control that does
// nothing would read as if its figures were of that range; so there the header says plainly what
// window the page shows instead, and the range stays in the URL (and in the navigation's links) for
// the pages it drives.

/** The window a page shows instead of the header's range, in words; null on the pages the range drives. */
export function rangeNotUsedNote(pathname: string): string | null {
  if (pathname === "/settings") return "The date range does not apply to Settings.";
  if (/^\/visitors\/[^/]+$/.test(pathname)) return "The date range does not apply here: this is the visitor's whole timeline.";
  return null;
}
