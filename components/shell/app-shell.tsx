// The signed-in frame of every page: skip link, header with navigation, the date range and its time
// zone (every time on the page is shown in that zone), the workspace's plan and the key's environment ("Test data" for a test key), the theme
// toggle, the saved views ("Views"; "Save view" beside the range on the pages that take a query, and
// "Share" on the five pages that may be shared),
// the account menu (Settings, sign out), the main landmark the skip link targets, and the
// exports tray (downloads running or just finished, on every page).
import Link from "next/link";
import type { ReactNode } from "react";
import { DisplayTimeZoneProvider } from "@/components/range/display-time-zone";
import { ComparisonControl } from "@/components/range/comparison-control";
import { RangeControl } from "@/components/range/range-control";
import { ExportsTray } from "@/components/export/exports-tray";
import { SharePage } from "@/components/shares/share-page";
import { SaveView } from "@/components/views/save-view";
import { ViewsMenu } from "@/components/views/views-menu";
import { LogoIcon } from "@/components/ui/icons";
import { AccountMenu, type AccountInfo } from "./account-menu";
import { NavLinks } from "./nav-links";
import { StoreBrowserTimeZone } from "./store-time-zone";
import { ThemeToggle } from "./theme-toggle";
import styles from "./shell.module.css";

export function AppShell({ account, children }: { account: AccountInfo; children: ReactNode }) {
  return (
    <DisplayTimeZoneProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-header-inner">
          <Link className="brand" href="/">
            <span className="brand-mark">
              <LogoIcon />
            </span>
            <span className="visually-hidden-narrow">Workspace Analytics</span>
          </Link>
          <NavLinks />
          <div className="header-tools">
            {account.plan && (
              <span className="badge badge-neutral hide-narrow" data-testid="plan-badge" title={`Workspace plan: ${account.plan}`}>
                <span className="visually-hidden">Plan: </span>
                {account.plan}
              </span>
            )}
            {account.environment === "test" ? (
              <span className="badge badge-test" data-testid="test-data-badge" title="Signed in with a test key: this is test data">
                Test data
              </span>
            ) : (
              <span className="badge badge-success" data-testid="live-data-badge" title="Signed in with a live key: your workspace's real data">
                Live
              </span>
            )}
            <ViewsMenu />
            <ThemeToggle />
            <AccountMenu account={account} />
          </div>
        </div>
        {/* The range gets a row of its own: beside the navigation it would crowd it below ~1500 px. */}
        <div className={styles.rangeBar}>
          <div className={styles.rangeBarInner}>
            <RangeControl />
            <ComparisonControl />
            <SaveView />
            <SharePage />
          </div>
        </div>
      </header>
      <StoreBrowserTimeZone />
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
      {/* After the main content in the reading order; shown fixed at the bottom of the window. */}
      <ExportsTray />
    </DisplayTimeZoneProvider>
  );
}
