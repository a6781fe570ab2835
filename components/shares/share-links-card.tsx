"use client";
// Settings' "Share links": every read-only link of the workspace (made from a page's "Share"), with
// its page and range, whether it has a password, when it expires, how often and when it was last
// opened; each can be copied, given or cleared a password, given another expiry or none, and revoked
// (after a confirmation: the link stops opening at once, for everyone). A workspace not watched is
// told that its links cannot be read until it is. Changes are announced in a polite live region;
// refusals are said on the field they are about.
import { useId, useState, type FormEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { usePageNow } from "@/components/ui/date-time";
import { formatDateTime, formatNumber } from "@/lib/format/format";
import { ShareProblem, useShareLinks, useShareWrites, type ShareLink } from "@/lib/queries/shares";
import { useWorkspaceInfo } from "@/lib/queries/workspace";
import { isSharedPage, MAX_PASSWORD, MIN_PASSWORD, SHARED_PAGE_TITLES } from "@/lib/shares/pages";
import { CopyLink, expiryInstant } from "./share-page";
import styles from "./shares.module.css";

/** A link's range in words: "Last 30 days", "2026-11-01 to 2026-11-15", or the page's default. */
export function rangeText(query: Record<string, string>): string {
  if (query.range) return query.range === "today" ? "Today" : `Last ${query.range.replace(/d$/, " days")}`;
  if (query.from && query.to) return `${query.from} to ${query.to}`;
  if (query.from) return `From ${query.from}`;
  return "Last 30 days (the page's default)";
}

export function ShareLinksCard() {
  const links = useShareLinks();
  const workspace = useWorkspaceInfo();
  const [said, setSaid] = useState("");
  const watching = workspace.data?.watching;
  return (
    <Card
      title="Share links"
      description="Read-only links to a page for people without the key, made with “Share” beside “Save view”."
      testId="share-links-card"
      id="share-links"
    >
      {watching && watching !== "on" && (
        <p className="small" data-testid="share-links-watching">
          {watching === "off"
            ? "Watching is off: links read with the key this dashboard keeps while watching, so they show no figures until it is on again."
            : "Watching is paused: links show no figures until it is on again with a working key."}
        </p>
      )}
      {links.isPending ? (
        <p className="muted small">Loading the links…</p>
      ) : links.error ? (
        <p className="field-error" role="alert">
          {links.error.message}
        </p>
      ) : links.data.length === 0 ? (
        <p className="muted small" data-testid="share-links-empty">
          No links yet. Open a page such as AI platforms and choose “Share”.
        </p>
      ) : (
        <ul className={styles.list} data-testid="share-links">
          {links.data.map((link) => (
            <ShareLinkItem key={link.id} link={link} onSaid={setSaid} />
          ))}
        </ul>
      )}
      <span className="visually-hidden" role="status" data-testid="share-links-status">
        {said}
      </span>
    </Card>
  );
}

function ShareLinkItem({ link, onSaid }: { link: ShareLink; onSaid: (text: string) => void }) {
  const tz = useDisplayTimeZone();
  const { change, revoke } = useShareWrites();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState("");
  const [passwordChoice, setPasswordChoice] = useState<"keep" | "set" | "remove">("keep");
  const [expiry, setExpiry] = useState("");
  const [expiryChoice, setExpiryChoice] = useState<"keep" | "set" | "remove">("keep");
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const now = usePageNow();
  const expired = link.expires_at !== null && now !== null && Date.parse(link.expires_at) <= now.getTime();

  async function save(e: FormEvent) {
    e.preventDefault();
    if (passwordChoice === "set" && ([...password].length < MIN_PASSWORD || [...password].length > MAX_PASSWORD))
      return setProblem({ message: `Use a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`, field: "password" });
    if (expiryChoice === "set" && !expiry) return setProblem({ message: "Choose when the link expires.", field: "expires_at" });
    setProblem(null);
    try {
      await change.mutateAsync({
        id: link.id,
        ...(passwordChoice === "set" ? { password } : passwordChoice === "remove" ? { password: null } : {}),
        ...(expiryChoice === "set" ? { expires_at: expiryInstant(expiry)! } : expiryChoice === "remove" ? { expires_at: null } : {}),
      });
      setEditing(false);
      onSaid(`Changed “${link.name}”.`);
    } catch (error) {
      const p = error instanceof ShareProblem ? error : new ShareProblem("The link could not be changed. Try again.");
      setProblem({ message: p.message, ...(p.field ? { field: p.field } : {}) });
    }
  }

  async function doRevoke() {
    try {
      await revoke.mutateAsync(link.id);
      onSaid(`Revoked “${link.name}”: it no longer opens.`);
    } catch (error) {
      setProblem({ message: error instanceof ShareProblem ? error.message : "The link could not be revoked. Try again." });
    }
  }

  return (
    <li className={styles.item} data-testid="share-link-item">
      <div className={styles.itemHead}>
        <strong>{link.name}</strong>
        <span className="small muted">{isSharedPage(link.path) ? SHARED_PAGE_TITLES[link.path] : link.path}</span>
      </div>
      <dl className={`small ${styles.facts}`}>
        <div>
          <dt>Range</dt>
          <dd>{rangeText(link.query)}</dd>
        </div>
        <div>
          <dt>Password</dt>
          <dd data-testid="share-link-password">{link.password ? "Yes" : "No"}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd data-testid="share-link-expiry">{link.expires_at ? `${expired ? "Expired " : ""}${formatDateTime(link.expires_at, tz)}` : "Never"}</dd>
        </div>
        <div>
          <dt>Opened</dt>
          <dd data-testid="share-link-opened">
            {link.opened_count === 0
              ? "Never"
              : `${formatNumber(link.opened_count)} ${link.opened_count === 1 ? "time" : "times"}, last ${formatDateTime(link.last_opened_at, tz)}`}
          </dd>
        </div>
      </dl>
      <CopyLink url={link.url} testId="share-link-url" />
      {editing ? (
        <form className={styles.form} onSubmit={(e) => void save(e)} noValidate>
          <fieldset>
            <legend className="field-label">Password</legend>
            <label>
              <input type="radio" name={`${id}-pw`} checked={passwordChoice === "keep"} onChange={() => setPasswordChoice("keep")} /> Keep as it is
            </label>{" "}
            <label>
              <input
                type="radio"
                name={`${id}-pw`}
                checked={passwordChoice === "set"}
                onChange={() => setPasswordChoice("set")}
                data-testid="share-link-set-password"
              />{" "}
              {link.password ? "Change it" : "Add one"}
            </label>{" "}
            {link.password && (
              <label>
                <input
                  type="radio"
                  name={`${id}-pw`}
                  checked={passwordChoice === "remove"}
                  onChange={() => setPasswordChoice("remove")}
                  data-testid="share-link-remove-password"
                />{" "}
                Remove it
              </label>
            )}
            {passwordChoice === "set" && (
              <div className="field">
                <label htmlFor={`${id}-password`}>New password</label>
                <input
                  id={`${id}-password`}
                  className="input"
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={problem?.field === "password" ? true : undefined}
                  aria-describedby={problem?.field === "password" ? `${id}-password-error` : undefined}
                  data-testid="share-link-password-input"
                />
                {problem?.field === "password" && (
                  <span id={`${id}-password-error`} className="field-error">
                    {problem.message}
                  </span>
                )}
              </div>
            )}
          </fieldset>
          <fieldset>
            <legend className="field-label">Expiry</legend>
            <label>
              <input type="radio" name={`${id}-exp`} checked={expiryChoice === "keep"} onChange={() => setExpiryChoice("keep")} /> Keep as it is
            </label>{" "}
            <label>
              <input
                type="radio"
                name={`${id}-exp`}
                checked={expiryChoice === "set"}
                onChange={() => setExpiryChoice("set")}
                data-testid="share-link-set-expiry"
              />{" "}
              Expire at…
            </label>{" "}
            <label>
              <input
                type="radio"
                name={`${id}-exp`}
                checked={expiryChoice === "remove"}
                onChange={() => setExpiryChoice("remove")}
                data-testid="share-link-no-expiry"
              />{" "}
              Never expire
            </label>
            {expiryChoice === "set" && (
              <div className="field">
                <label htmlFor={`${id}-expiry`}>Expires</label>
                <input
                  id={`${id}-expiry`}
                  className="input"
                  type="datetime-local"
                  value={expiry}
                  onChange={(e) => setExpiry(e.target.value)}
                  aria-invalid={problem?.field === "expires_at" ? true : undefined}
                  aria-describedby={problem?.field === "expires_at" ? `${id}-expiry-error` : undefined}
                  data-testid="share-link-expiry-input"
                />
                {problem?.field === "expires_at" && (
                  <span id={`${id}-expiry-error`} className="field-error">
                    {problem.message}
                  </span>
                )}
              </div>
            )}
          </fieldset>
          {problem && !problem.field && (
            <p className="field-error" role="alert">
              {problem.message}
            </p>
          )}
          <div className={styles.actions}>
            <button type="submit" className="button button-small" disabled={change.isPending} data-testid="share-link-save">
              {change.isPending ? "Saving…" : "Save"}
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : confirming ? (
        <div className={styles.actions} role="group" aria-label={`Revoke ${link.name}`}>
          <span className="small">Revoke “{link.name}”? It stops opening at once, for everyone who has it.</span>
          <button
            type="button"
            className="button button-danger button-small"
            onClick={() => void doRevoke()}
            disabled={revoke.isPending}
            data-testid="share-link-confirm-revoke"
          >
            {revoke.isPending ? "Revoking…" : "Revoke"}
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className={styles.actions}>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              setPasswordChoice("keep");
              setExpiryChoice("keep");
              setPassword("");
              setExpiry("");
              setProblem(null);
              setEditing(true);
            }}
            data-testid="share-link-change"
          >
            Change password or expiry
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(true)} data-testid="share-link-revoke">
            Revoke
          </button>
          {problem && !editing && (
            <p className="field-error" role="alert">
              {problem.message}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
