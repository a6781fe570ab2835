// Unknown visitor id (or one that is not a visitor id at all): say so, with a way back.
import Link from "next/link";

export default function VisitorNotFound() {
  return (
    <div className="card stack" style={{ maxWidth: 640 }} data-testid="visitor-not-found">
      <h1>Visitor not found</h1>
      <p className="muted">There is no visitor with this id in your workspace. It may have been mistyped, or the link is from another workspace.</p>
      <p>
        <Link className="button" href="/visitors">
          ← Back to all visitors
        </Link>
      </p>
    </div>
  );
}
