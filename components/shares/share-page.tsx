"use client";
// "Share" beside "Save view", on the five pages that may be shared (lib/shares/pages.ts): a small
// dialog that makes a read-only link to this page with its parameters (a preset range kept relative,
// as a saved view keeps it), for people without the key, optionally with a password and an expiry.
// The link is shown once made, with a button that copies it; Settings lists every link afterwards. A
// workspace not watched is told so (a link reads with the kept key) and pointed to Settings.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { parseAsString, useQueryStates } from "nuqs";
import { useId, useRef, useState, type FormEvent } from "react";
import { useAppRange } from "@/components/range/use-app-range";
import { useDismissOutside } from "@/components/ui/use-dismiss-outside";
import { rangePreset, viewQuery } from "@/components/views/save-view";
import { ShareProblem, useShareWrites, type ShareField, type ShareLink } from "@/lib/queries/shares";
import { useViewerTimeZone } from "@/lib/range/use-date-range";
import { isSharedPage, MAX_PASSWORD, MIN_PASSWORD, type SharedPage } from "@/lib/shares/pages";
import { pageParsers } from "@/lib/ui/page-params";
import styles from "./shares.module.css";

/** What a new link is called unless the member says otherwise. */
const PAGE_NAMES: Record<SharedPage, string> = {
  "/": "Overview",
  "/platforms": "AI platforms",
  "/locations": "Locations",
  "/queries": "Questions",
  "/intelligence": "Intelligence",
};

export function SharePage() {
  const pathname = usePathname();
  return isSharedPage(pathname) ? <ShareButton page={pathname} /> : null;
}

/** A `datetime-local` value as an instant in ISO 8601 (the browser's zone), or undefined when empty. */
export const expiryInstant = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

/** Copies `text`, saying whether it could. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function ShareButton({ page }: { page: SharedPage }) {
  const [values] = useQueryStates(pageParsers(page, parseAsString));
  const state = useAppRange();
  const viewerTz = useViewerTimeZone();
  const { create } = useShareWrites();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(PAGE_NAMES[page]);
  const [password, setPassword] = useState("");
  const [expiry, setExpiry] = useState("");
  const [problem, setProblem] = useState<{ message: string; field?: ShareField; code?: string } | null>(null);
  const [made, setMade] = useState<ShareLink | null>(null);
  const [said, setSaid] = useState("");
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  function show() {
    setName(PAGE_NAMES[page]);
    setPassword("");
    setExpiry("");
    setProblem(null);
    setMade(null);
    setSaid("");
    create.reset();
    setOpen(true);
    requestAnimationFrame(() => input.current?.focus());
  }

  function hide(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  useDismissOutside(root, open, () => setOpen(false), { focus: true });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem({ message: "Give the link a name, e.g. “AI traffic for the board”.", field: "name" });
    if (password && ([...password].length < MIN_PASSWORD || [...password].length > MAX_PASSWORD))
      return setProblem({ message: `Use a password of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters, or none.`, field: "password" });
    setProblem(null);
    try {
      const preset = rangePreset(state);
      const query = viewQuery(values, preset, viewerTz);
      const expires = expiryInstant(expiry);
      const link = await create.mutateAsync({
        name: trimmed,
        path: page,
        query,
        ...(password ? { password } : {}),
        ...(expires ? { expires_at: expires } : {}),
      });
      setMade(link);
      setSaid(`Made the link “${link.name}”. Copy it below; Settings lists every link.`);
    } catch (error) {
      const p = error instanceof ShareProblem ? error : new ShareProblem("The link could not be made. Try again.");
      setProblem({ message: p.message, ...(p.field ? { field: p.field } : {}), ...(p.code ? { code: p.code } : {}) });
    }
  }

  const fieldError = (field: ShareField) => (problem?.field === field ? problem.message : null);
  const formError = problem && !problem.field ? problem : null;

  return (
    <div
      className={styles.share}
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          hide(true);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className={`header-button ${styles.shareButton}`}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? hide(false) : show())}
        data-testid="share-button"
      >
        <ShareIcon />
        <span className="visually-hidden-narrow">Share</span>
      </button>
      {open && (
        <div id={id} role="dialog" aria-labelledby={`${id}-title`} className={`popover ${styles.dialog}`} data-testid="share-dialog">
          {made ? (
            <div className={styles.form}>
              <h2 id={`${id}-title`} className={styles.dialogTitle}>
                Link made
              </h2>
              <p className="muted small">Anyone with this link sees this page read-only{made.password ? ", after typing the password" : ""}.</p>
              <CopyLink url={made.url} testId="share-link" />
              <div className={styles.actions}>
                <button type="button" className="button button-secondary button-small" onClick={() => hide(true)}>
                  Done
                </button>
              </div>
            </div>
          ) : (
            <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
              <h2 id={`${id}-title`} className={styles.dialogTitle}>
                Share this page
              </h2>
              <p className="muted small">A read-only link for people without the key: this page with its range and filters, no visitor&apos;s details.</p>
              <Field id={`${id}-name`} label="Name" error={fieldError("name")}>
                <input
                  ref={input}
                  id={`${id}-name`}
                  className="input"
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  autoComplete="off"
                  aria-invalid={fieldError("name") ? true : undefined}
                  aria-describedby={fieldError("name") ? `${id}-name-error` : undefined}
                  data-testid="share-name"
                />
              </Field>
              <Field id={`${id}-password`} label="Password (optional)" error={fieldError("password")}>
                <input
                  id={`${id}-password`}
                  className="input"
                  type="password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  autoComplete="new-password"
                  aria-invalid={fieldError("password") ? true : undefined}
                  aria-describedby={fieldError("password") ? `${id}-password-error` : undefined}
                  data-testid="share-password"
                />
              </Field>
              <Field id={`${id}-expiry`} label="Expires (optional)" error={fieldError("expires_at")}>
                <input
                  id={`${id}-expiry`}
                  className="input"
                  type="datetime-local"
                  value={expiry}
                  onChange={(e) => setExpiry(e.target.value)}
                  aria-invalid={fieldError("expires_at") ? true : undefined}
                  aria-describedby={fieldError("expires_at") ? `${id}-expiry-error` : undefined}
                  data-testid="share-expiry"
                />
              </Field>
              {formError && (
                <p className="field-error" role="alert" data-testid="share-error">
                  {formError.message} {formError.code === "watching_required" && <Link href="/settings#watching">Open Settings</Link>}
                </p>
              )}
              <div className={styles.actions}>
                <button type="submit" className="button button-small" disabled={create.isPending} data-testid="share-submit">
                  {create.isPending ? "Making the link…" : "Make link"}
                </button>
                <button type="button" className="button button-secondary button-small" onClick={() => hide(true)}>
                  Cancel
                </button>
              </div>
            </form>
          )}
        </div>
      )}
      <span className="visually-hidden" role="status">
        {said}
      </span>
    </div>
  );
}

function Field({ id, label, error, children }: { id: string; label: string; error: string | null; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A link shown in a read-only field, with a button that copies it and says so. */
export function CopyLink({ url, testId }: { url: string | null; testId: string }) {
  const [copied, setCopied] = useState<"" | "copied" | "failed">("");
  const id = useId();
  if (url === null) return <p className="small muted">This link cannot be shown by this server right now (its secret is not configured here).</p>;
  return (
    <div className={styles.copy}>
      <label className="visually-hidden" htmlFor={id}>
        Link
      </label>
      <input id={id} className="input" readOnly value={url} onFocus={(e) => e.currentTarget.select()} data-testid={testId} />
      <button
        type="button"
        className="button button-small"
        onClick={() => void copyText(url).then((ok) => setCopied(ok ? "copied" : "failed"))}
        data-testid={`${testId}-copy`}
      >
        Copy
      </button>
      <span className="small" role="status">
        {copied === "copied" ? "Copied." : copied === "failed" ? "Could not copy: select the link and copy it." : ""}
      </span>
    </div>
  );
}

function ShareIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}
