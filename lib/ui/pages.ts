// The app's pages in the main navigation, in order: the navigation draws them, and the console-clean
// browser test (e2e/console-clean.spec.ts) visits them, with the few pages the navigation does not
// list, and fails when a page file under app/ is in neither list.
export const NAV_PAGES = [
  { href: "/", label: "Overview" },
  { href: "/visitors", label: "Visitors" },
  { href: "/mentions", label: "Mentions" },
  { href: "/platforms", label: "AI platforms" },
  { href: "/locations", label: "Locations" },
  { href: "/queries", label: "Queries" },
  { href: "/intelligence", label: "Intelligence" },
  { href: "/settings", label: "Settings" },
] as const;
