// The signed-in frame of every page: skip link, header with navigation, the "Test data" badge for a
// test key, the theme toggle, and the main landmark the skip link targets.
import Link from "next/link";
import type { ReactNode } from "react";
import { LogoIcon } from "@/components/ui/icons";
import { NavLinks } from "./nav-links";
import { ThemeToggle } from "./theme-toggle";

export function AppShell({ environment, children }: { environment: "live" | "test"; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-header-inner">
          <Link className="brand" href="/">
            <span className="brand-mark">
              <LogoIcon />
            </span>
            <span className="brand-name">Workspace Analytics</span>
          </Link>
          <NavLinks />
          <div className="header-tools">
            {environment === "test" && (
              <span className="badge badge-test" data-testid="test-data-badge" title="Signed in with a test key: this is test data">
                Test data
              </span>
            )}
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
