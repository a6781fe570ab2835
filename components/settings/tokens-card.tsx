"use client";
// Settings' "Access tokens": read-only tokens for scripts and AI assistants (MCP). Making one needs
// watching (the tokens read with the kept key), which the card says, with the form off, until it is on.
// A made token is shown once, with a copy button, the MCP endpoint's address and the header to send;
// afterwards only its hint. The list says each token's name, hint, when it was made, last used and
// when it expires; "Revoke" asks first. Results are announced in a polite live region; a refused field
// is said on that field, and focus goes there.
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { formatDate, formatDateTime } from "@/lib/format/format";
import { ACTIVITY_KEY } from "@/lib/queries/activity";
import { makeToken, revokeToken, TOKENS_KEY, TokenProblem, useAccessTokens, type AccessToken, type MadeToken } from "@/lib/queries/tokens";
import { useWorkspaceInfo } from "@/lib/queries/workspace";

/** The expiries offered, in days (null: never). */
const EXPIRIES = [
  { label: "Never", days: null },
  { label: "In 30 days", days: 30 },
  { label: "In 90 days", days: 90 },
  { label: "In a year", days: 365 },
] as const;

export function TokensCard() {
  const tz = useDisplayTimeZone();
  const id = useId();
  const queryClient = useQueryClient();
  const workspace = useWorkspaceInfo();
  const tokens = useAccessTokens();
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState<number | "never">("never");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<TokenProblem | null>(null);
  const [made, setMade] = useState<MadeToken | null>(null);
  const [status, setStatus] = useState("");
  const nameInput = useRef<HTMLInputElement>(null);
  const watching = workspace.data?.watching === "on";

  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: TOKENS_KEY }), queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY })]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setError(null);
    setStatus("");
    setMade(null);
    if (name.trim() === "") {
      setError(new TokenProblem("Name the token in 1 to 80 characters on one line, e.g. Weekly report script.", "name"));
      nameInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const days = expiry === "never" ? null : expiry;
      const token = await makeToken({ name: name.trim(), expires_at: days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString() });
      setMade(token);
      setName("");
      setStatus(`Token ${token.name} made. Copy it now: it is not shown again.`);
      await refresh();
    } catch (e) {
      const problem = e instanceof TokenProblem ? e : new TokenProblem(String(e));
      setError(problem);
      if (problem.field === "name") nameInput.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const list = tokens.data ?? [];
  return (
    <Card
      title="Access tokens"
      testId="tokens-card"
      description="Read-only tokens for scripts and AI assistants: they read this workspace's data as a session does, and change nothing."
    >
      <div className="stack" style={{ gap: 16 }}>
        {workspace.data && !watching && (
          <p className="small" data-testid="tokens-watching-required">
            Tokens read with the key the dashboard keeps for this workspace, so they need watching: turn it on under “History and watching” first.
          </p>
        )}
        {tokens.error && (
          <p className="field-error" role="alert">
            {tokens.error.message}
          </p>
        )}
        {tokens.isPending && !tokens.error && (
          <p className="small muted" data-testid="tokens-loading">
            Loading…
          </p>
        )}
        {tokens.data && list.length === 0 && (
          <p className="small muted" data-testid="tokens-empty">
            No tokens yet.
          </p>
        )}
        {list.length > 0 && (
          <ul className="linked-keys" aria-label="Access tokens of this workspace" data-testid="tokens-list">
            {list.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                tz={tz}
                onRevoked={async () => {
                  setStatus(`Token ${token.name} (${token.hint}) revoked: it stops working at once.`);
                  if (made?.id === token.id) setMade(null);
                  await refresh();
                }}
              />
            ))}
          </ul>
        )}
        {made && (
          <div className="token-made" data-testid="token-made">
            <label className="field-label" htmlFor={`${id}-secret`}>
              Your new token — copy it now, it is not shown again
            </label>
            <div className="link-key-row">
              <input
                id={`${id}-secret`}
                className="input mono"
                readOnly
                value={made.token}
                onFocus={(e) => e.currentTarget.select()}
                data-testid="token-secret"
              />
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void navigator.clipboard?.writeText(made.token).then(() => setStatus("Token copied."))}
              >
                Copy
              </button>
            </div>
            <p className="small muted" style={{ overflowWrap: "anywhere" }}>
              Send it as <code>Authorization: Bearer {made.hint}</code> to any of the dashboard&apos;s reads, or connect an AI assistant to{" "}
              <code data-testid="mcp-url">{origin}/api/mcp</code> with that header.
            </p>
          </div>
        )}
        <form onSubmit={(e) => void submit(e)} noValidate data-testid="token-form">
          <fieldset disabled={!watching || busy} style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="field-label">Make a token</legend>
            <div className="link-key-row">
              <label className="visually-hidden" htmlFor={`${id}-name`}>
                Name
              </label>
              <input
                id={`${id}-name`}
                ref={nameInput}
                className="input"
                placeholder="What it is for, e.g. Weekly report script"
                value={name}
                maxLength={200}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={error?.field === "name" ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                data-testid="token-name"
              />
              <label className="visually-hidden" htmlFor={`${id}-expiry`}>
                Expires
              </label>
              <select
                id={`${id}-expiry`}
                className="input"
                value={String(expiry)}
                onChange={(e) => setExpiry(e.target.value === "never" ? "never" : Number(e.target.value))}
                data-testid="token-expiry"
              >
                {EXPIRIES.map((option) => (
                  <option key={option.label} value={option.days === null ? "never" : String(option.days)}>
                    {option.days === null ? "Never expires" : `Expires ${option.label.toLowerCase()}`}
                  </option>
                ))}
              </select>
              <button type="submit" className="button" data-testid="token-submit">
                {busy ? "Making…" : "Make token"}
              </button>
            </div>
          </fieldset>
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert" data-testid="token-error">
              {error.message}
            </p>
          )}
          <p className="small muted">At most 20 tokens. Each may make 120 requests a minute. The dashboard keeps only a hash of it.</p>
        </form>
      </div>
      <p className="small" role="status" aria-live="polite" data-testid="tokens-status" style={status ? { marginTop: 12 } : undefined}>
        {status}
      </p>
    </Card>
  );
}

function TokenRow({ token, tz, onRevoked }: { token: AccessToken; tz: string; onRevoked: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // When the row was shown: an expiry passing while the page is open is said on the next load.
  const [shownAt] = useState(() => Date.now());
  const expired = token.expires_at !== null && Date.parse(token.expires_at) <= shownAt;

  async function revoke(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await revokeToken(token);
      await onRevoked();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <li data-testid="token-row">
      <div className="linked-key-row">
        <strong>{token.name}</strong>
        <span className="mono">{token.hint}</span>
        <span className="small muted">
          made {formatDate(token.created_at, tz)}; {token.last_used_at ? `last used ${formatDateTime(token.last_used_at, tz)}` : "never used"};{" "}
          {token.expires_at ? `${expired ? "expired" : "expires"} ${formatDate(token.expires_at, tz)}` : "never expires"}
        </span>
        {!confirming && (
          <button type="button" className="button button-small button-danger" aria-label={`Revoke token ${token.name}`} onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
      </div>
      {confirming && (
        <div className="linked-key-row" role="group" aria-label={`Revoke token ${token.name}?`}>
          <span className="small">Scripts and assistants using it stop working at once.</span>
          <button
            type="button"
            className="button button-small button-danger"
            disabled={busy}
            onClick={() => void revoke()}
            data-testid="token-revoke-confirm"
            autoFocus
          >
            {busy ? "Revoking…" : "Revoke"}
          </button>
          <button type="button" className="button button-small button-secondary" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
