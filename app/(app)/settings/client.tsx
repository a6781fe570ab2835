"use client";
// Settings: which environment the key belongs to, the key in masked form, history, watching and the
// linked keys (components/settings/watching-card.tsx), the share links (components/shares), who changed what (components/settings/activity-card.tsx),
// the viewer's time zone, the theme choice, and sign out (which also clears every cached answer in
// this tab); then, in the page's full width, alerts and the weekly digest (components/alerts); last,
// deleting everything kept (components/settings/delete-kept-card.tsx).
import { useState } from "react";
import { signOut } from "@/components/shell/sign-out";
import { notifyThemeChange } from "@/components/shell/theme-toggle";
import { TimeZoneCard } from "@/components/range/time-zone-setting";
import { AlertsSection } from "@/components/alerts/alerts-section";
import { ActivityCard } from "@/components/settings/activity-card";
import { DeleteKeptCard } from "@/components/settings/delete-kept-card";
import { ShareLinksCard } from "@/components/shares/share-links-card";
import { TokensCard } from "@/components/settings/tokens-card";
import { WatchingCard } from "@/components/settings/watching-card";
import { Card } from "@/components/ui/card";
import { applyTheme, THEMES, type ThemeChoice } from "@/lib/ui/theme";

export function SettingsClient({
  environment,
  keyHint,
  theme,
  emailAvailable = false,
}: {
  environment: "live" | "test";
  keyHint: string;
  theme: ThemeChoice;
  /** The dashboard has a mail server (SMTP_URL): e-mail destinations can be added. */
  emailAvailable?: boolean;
}) {
  const [choice, setChoice] = useState<ThemeChoice>(theme);
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function doSignOut() {
    setSigningOut(true);
    setError(null);
    const problem = await signOut();
    if (problem) {
      setError(problem);
      setSigningOut(false);
    }
  }

  return (
    <>
      <div className="stack" style={{ maxWidth: 760 }}>
        <div className="page-header">
          <div>
            <h1>Settings</h1>
            <p>
              The API key you signed in with, who changed this workspace&apos;s settings, your time zone, how the dashboard looks, its alerts, and what it
              keeps.
            </p>
          </div>
        </div>
        <Card title="API key" testId="key-card">
          <dl className="details">
            <div>
              <dt>Data</dt>
              <dd data-testid="environment">
                {environment === "test" ? (
                  <>
                    <span className="badge badge-test">Test data</span> <span className="small muted">made up, not your live workspace</span>
                  </>
                ) : (
                  <>
                    <span className="badge badge-success">Live</span> <span className="small muted">your workspace&apos;s real data</span>
                  </>
                )}
              </dd>
            </div>
            <div>
              <dt>Key</dt>
              <dd className="mono" data-testid="key-hint">
                {keyHint}
              </dd>
            </div>
          </dl>
          <p className="small muted" style={{ marginTop: 16 }}>
            Only the start and end of the key are shown; the whole key stays on the dashboard&apos;s server. To use another key, sign out and sign in with it.
          </p>
          <div style={{ marginTop: 16 }} className="card-actions">
            <button type="button" className="button button-danger" onClick={() => void doSignOut()} disabled={signingOut} data-testid="sign-out">
              {signingOut ? "Signing out…" : "Sign out"}
            </button>
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
          </div>
        </Card>
        <WatchingCard />
        <ShareLinksCard />
        <TokensCard />
        <ActivityCard keyHint={keyHint} />
        <TimeZoneCard />
        <Card title="Appearance">
          <fieldset className="theme-choice">
            <legend className="field-label">Theme</legend>
            <div className="segmented" role="group" aria-label="Theme">
              {THEMES.map((t) => (
                <button
                  key={t}
                  type="button"
                  aria-pressed={choice === t}
                  onClick={() => {
                    setChoice(t);
                    applyTheme(t);
                    notifyThemeChange();
                  }}
                >
                  {t === "system" ? "Follow system" : t === "light" ? "Light" : "Dark"}
                </button>
              ))}
            </div>
          </fieldset>
        </Card>
      </div>
      <AlertsSection emailAvailable={emailAvailable} />
      <div className="stack" style={{ maxWidth: 760, marginTop: 24 }}>
        <DeleteKeptCard />
      </div>
    </>
  );
}
