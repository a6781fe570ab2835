// `/s/{token}` - a page shared read-only with people who have no key (lib/shares): the link's page with
// its parameters, read through the link's own routes (/api/shared/{token}/…) with the workspace's kept
// key. A link that does not open is the one "does not exist or has expired" page (404, not-found.tsx),
// whatever the cause; one with a password asks for it first. Never indexed, never telling other sites
// where a click came from (metadata here, headers in proxy.ts). Each load that shows the page counts
// as one opening.
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DisplayTimeZoneProvider } from "@/components/range/display-time-zone";
import { ComparisonControl } from "@/components/range/comparison-control";
import { RangeControl } from "@/components/range/range-control";
import { ThemeToggle } from "@/components/shell/theme-toggle";
import { LogoIcon } from "@/components/ui/icons";
import { SharedViewProvider } from "@/components/shares/shared-view";
import styles from "@/components/shares/shares.module.css";
import { UnlockForm } from "@/components/shares/unlock-form";
import { ZoneStep } from "@/components/shares/zone-step";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import { serverContext } from "@/lib/server/context";
import { viewerTimeZoneCookie } from "@/lib/server/viewer-time-zone";
import { openShare, SHARE_TOKEN } from "@/lib/shares/routes";
import type { SharedPage } from "@/lib/shares/pages";
import { OverviewClient } from "../../(app)/(overview)/client";
import { IntelligenceClient } from "../../(app)/intelligence/client";
import { LocationsClient } from "../../(app)/locations/client";
import { PlatformsClient } from "../../(app)/platforms/client";
import { QueriesClient } from "../../(app)/queries/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Shared page", robots: { index: false, follow: false }, referrer: "no-referrer" };

const PAGES: Record<SharedPage, () => ReactNode> = {
  "/": () => <OverviewClient />,
  "/platforms": () => <PlatformsClient />,
  "/locations": () => <LocationsClient />,
  "/queries": () => <QueriesClient />,
  "/intelligence": () => <IntelligenceClient />,
};

export default async function SharedPageRoute({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  if (!SHARE_TOKEN.pattern.test(token)) notFound();
  const store = await serverContext().store();
  const jar = await cookies();
  const opened = await openShare(store, token, (name) => jar.get(name)?.value);
  if (!opened) notFound();
  const { share, unlocked } = opened;
  if (!unlocked) return <UnlockForm token={token} />;
  const search = await searchParams;
  const viewerTz = await viewerTimeZoneCookie();
  if (!viewerTz && search.tz === undefined) return <ZoneStep />;
  // Opened bare: with the page's parameters as shared (proxy.ts then turns a relative range into the
  // viewer's days). Opened with parameters: the viewer's own range or comparison, as chosen.
  if (Object.keys(search).length === 0 && Object.keys(share.query).length > 0) redirect(`/s/${token}?${new URLSearchParams(share.query)}`);
  await store.shares.opened(share.id);
  const watching = (await store.workspaces.workspace(share.workspace))?.watching ?? "off";
  const tz = viewerTz ?? "UTC";
  const Page = PAGES[share.path as SharedPage];
  return (
    <ViewerTimeZoneProvider tz={tz}>
      <DisplayTimeZoneProvider>
        <SharedViewProvider path={share.path} token={token}>
          <header className="shell-header">
            <div className="shell-header-inner">
              <span className="brand">
                <span className="brand-mark">
                  <LogoIcon />
                </span>
                <span className="visually-hidden-narrow">Workspace Analytics</span>
              </span>
              <p className="small muted" data-testid="shared-by">
                Shared read-only: <strong>{share.name}</strong>
              </p>
              <div className="header-tools">
                <ThemeToggle />
              </div>
            </div>
            <div className={styles.sharedBar} style={{ padding: "0.5rem 1rem" }}>
              <RangeControl />
              <ComparisonControl />
            </div>
          </header>
          <main id="main" className="main" tabIndex={-1}>
            {watching !== "on" && (
              <p className="notice notice-error" role="alert" data-testid="shared-not-watched">
                This page cannot show its figures now: the workspace that shared it is not watched. Whoever shared it can turn watching on in its Settings.
              </p>
            )}
            <p className="small muted" data-testid="shared-read-at">
              Figures as read at most 5 minutes before {new Date(serverContext().now()).toISOString().slice(0, 16).replace("T", " ")} UTC.
            </p>
            {Page ? Page() : null}
          </main>
        </SharedViewProvider>
      </DisplayTimeZoneProvider>
    </ViewerTimeZoneProvider>
  );
}
