"use client";
// The password form of a share link that has one: the password is sent once to the link's unlock route
// (POST /api/shared/{token}/unlock), which answers with a cookie of that link's own for 24 hours, and
// the page is loaded again with it. A wrong password is said on the field; too many (5 in 15 minutes
// from this browser's address) say how long to wait.
import { useId, useState, type FormEvent } from "react";
import { isDataApiError } from "@/lib/data-api/errors";
import { sendJson } from "@/lib/queries/api";
import styles from "./shares.module.css";

export function UnlockForm({ token }: { token: string }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) return setProblem("Type the password you were given with the link.");
    setBusy(true);
    setProblem(null);
    try {
      await sendJson("POST", `/api/shared/${token}/unlock`, { password });
      window.location.reload();
    } catch (error) {
      setBusy(false);
      if (isDataApiError(error) && error.status === 429) {
        const minutes = Math.max(1, Math.ceil((error.retryAfter ?? 900) / 60));
        setProblem(`Too many wrong passwords. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`);
      } else if (isDataApiError(error) && error.status === 401) setProblem("That is not this link's password.");
      else if (isDataApiError(error) && error.status === 404) window.location.reload();
      else setProblem("The password could not be checked. Check your connection and try again.");
    }
  }

  return (
    <main className="auth-page" id="main">
      <form className={`card auth-card ${styles.form}`} onSubmit={(e) => void submit(e)} noValidate data-testid="unlock-form">
        <h1>This shared page has a password</h1>
        <p className="muted">Type the password you were given with the link to see the page.</p>
        <div className="field">
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            id={`${id}-password`}
            className="input"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            autoFocus
            data-testid="unlock-password"
          />
          {problem && (
            <span id={`${id}-error`} className="field-error" role="alert" data-testid="unlock-error">
              {problem}
            </span>
          )}
        </div>
        <button type="submit" className="button" disabled={busy} data-testid="unlock-submit">
          {busy ? "Checking…" : "Open the page"}
        </button>
      </form>
    </main>
  );
}
