// Any unknown URL: a clear "not found" with ways back.
import Link from "next/link";

export default function NotFound() {
  return (
    <main className="auth-page" id="main">
      <div className="card auth-card stack" data-testid="not-found">
        <h1>Page not found</h1>
        <p className="muted">There is nothing at this address. It may have moved, or the link is mistyped.</p>
        <p className="card-actions">
          <Link className="button" href="/">
            Go to the overview
          </Link>
          <Link className="button button-secondary" href="/visitors">
            Visitors
          </Link>
        </p>
      </div>
    </main>
  );
}
