// The one answer (404) for every share link that does not open: unknown, revoked, expired or
// malformed alike, so a link's page says nothing about why. No way into the rest of the app.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Link not found", robots: { index: false, follow: false }, referrer: "no-referrer" };

export default function SharedLinkGone() {
  return (
    <main className="auth-page" id="main">
      <div className="card auth-card stack" data-testid="share-gone">
        <h1>This link does not exist or has expired</h1>
        <p className="muted">Ask whoever shared it for a new link.</p>
      </div>
    </main>
  );
}
