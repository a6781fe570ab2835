"use client";
// Whether the page is drawn for a share link's viewer (app/s/[token]), and the one link component of
// the pages that may be shared: `AppLink` is next/link's `Link` for members; for a viewer, a link to the
// shared page itself (another country, a sort, a reset) stays on the link (`/s/{token}?…`), and any
// other (a list of visitors or mentions, Settings, another page) is drawn as its text, so nothing
// leads out of the shared page.
import Link from "next/link";
import { createContext, useContext, type ComponentProps, type ReactNode } from "react";

type Shared = { path: string; base: string } | null;

const SharedView = createContext<Shared>(null);

/** The shared page's own path and address, or null on a member's page. */
export const useSharedView = (): Shared => useContext(SharedView);

export function SharedViewProvider({ path, token, children }: { path: string; token: string; children: ReactNode }) {
  return <SharedView.Provider value={{ path, base: `/s/${token}` }}>{children}</SharedView.Provider>;
}

/** `href` (a path and its query) as the shared page's own address, or null when it leads elsewhere. */
export function sharedHref(shared: { path: string; base: string }, href: string): string | null {
  const url = new URL(href, "http://page.invalid");
  if (url.origin !== "http://page.invalid" || url.pathname !== shared.path) return null;
  return `${shared.base}${url.search}${url.hash}`;
}

export function AppLink(props: ComponentProps<typeof Link>) {
  const shared = useSharedView();
  if (!shared) return <Link {...props} />;
  const { href, children, className } = props;
  const own = typeof href === "string" ? sharedHref(shared, href) : null;
  if (own === null) return <span className={className}>{children}</span>;
  return <Link {...props} href={own} />;
}
