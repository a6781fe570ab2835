"use client";
// Settings: which environment the key belongs to, the key in masked form, the theme choice, and
// sign out (which also clears every cached answer in this tab).
import { useState } from "react";
import { notifyThemeChange } from "@/components/shell/theme-toggle";
import { Card } from "@/components/ui/card";
import { getQueryClient } from "@/lib/queries/get-query-client";
import { applyTheme, THEMES, type ThemeChoice } from "@/lib/ui/theme";

export function SettingsClient({ environment, keyHint, theme }: { environment: "live" | "test"; keyHint: string; theme: ThemeChoice }) {
  const [choice, setChoice] = useState<ThemeChoice>(theme);
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signOut() {
    setSigningOut(true);
    setError(null);
    try {
      const res = await fetch("/api/session", { method: "DELETE" });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    } catch {
      setError("Could not sign out. Check your connection and try again.");
      setSigningOut(false);
      return;
    }
    getQueryClient().clear();
    // A full page load, not a client navigation: no state of the signed-in session survives it.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- deliberate hard navigation on sign-out
    window.location.assign("/sign-in?reason=signed-out");
  }

  return (
    <div className="stack" style={{ maxWidth: 760 }}>
      <div className="page-header">
        <div>
          <h1>Settings</h1>
          <p>The API key this session uses, and how the dashboard looks.</p>
        </div>
      </div>
      <Card title="API key" testId="key-card">
        <dl className="details">
          <div>
            <dt>Environment</dt>
            <dd data-testid="environment">
              {environment === "test" ? (
                <span className="badge badge-test">Test: sandbox / test data</span>
              ) : (
                <span className="badge badge-success">Live: production data</span>
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
          The full key never leaves this app&apos;s server. To use another key, sign out and sign in with it.
        </p>
        <div style={{ marginTop: 16 }} className="card-actions">
          <button type="button" className="button button-danger" onClick={() => void signOut()} disabled={signingOut} data-testid="sign-out">
            {signingOut ? "Signing out…" : "Sign out"}
          </button>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      </Card>
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
  );
}
