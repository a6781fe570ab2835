"use client";
// The sign-in form. Tells a malformed key, a rejected key and an unreachable or failing upstream
// apart (the server decides which, by status and code; this says it in plain words, with the
// request id), and offers the demo workspaces, each described for someone trying the dashboard.
import { useId, useState } from "react";
import { RequestId } from "@/components/states/states";
import { LogoIcon } from "@/components/ui/icons";
import { isDataApiError } from "@/lib/data-api/errors";
import { sendJson } from "@/lib/queries/api";
import { getQueryClient } from "@/lib/queries/get-query-client";
import { safeNextPath } from "@/lib/ui/safe-next";
import { hardNavigate } from "@/lib/ui/hard-navigate";
import { signInErrorText } from "@/lib/ui/messages";
import { useHydrated } from "@/lib/ui/use-hydrated";
import type { DemoOption } from "./demos";

type Failure = { title: string; message: string; requestId?: string; field?: boolean };

const REASONS = {
  expired: "Your session ended or the API key stopped working. Sign in again to continue.",
  "signed-out": "You are signed out.",
  deleted: "Everything the dashboard kept for the workspace was deleted, and you were signed out. Sign in to start again from nothing.",
} as const;

const UNREACHABLE: Failure = { title: "This app's server could not be reached", message: "Check your connection and try again." };

/** A refused sign-in in plain words, by the route's status and code; an answer without an error of its own is described by its status. */
function describeFailure(error: unknown): Failure {
  if (!isDataApiError(error) || error.status === 0) return UNREACHABLE;
  const code = error.code === "http_error" || error.code === "unexpected_response" ? undefined : error.code;
  const words = signInErrorText({ status: error.status, code, param: error.param, retryAfter: error.retryAfter });
  return { title: words.title, message: words.message, requestId: error.requestId, field: words.field };
}

export function SignInForm({ next, reason, demos }: { next: string; reason?: keyof typeof REASONS; demos: DemoOption[] }) {
  const inputId = useId();
  const [apiKey, setApiKey] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  // Until hydrated the buttons do nothing, so they say so by being disabled (and tests wait for them).
  const ready = useHydrated() && busy === null;

  async function submit(body: { apiKey: string } | { demo: string }, label: string) {
    setBusy(label);
    setFailure(null);
    try {
      await sendJson("POST", "/api/session", body);
    } catch (error) {
      setFailure(describeFailure(error));
      setBusy(null);
      return;
    }
    // Nothing cached under an earlier session may show for this one.
    getQueryClient().clear();
    // Checked again here: the browser never navigates with a value it was merely handed.
    hardNavigate(safeNextPath(next));
  }

  return (
    <div className="card auth-card stack">
      <div className="stack" style={{ gap: 8 }}>
        <span className="brand">
          <span className="brand-mark">
            <LogoIcon />
          </span>
          Workspace Analytics
        </span>
        <h1>Sign in</h1>
        <p className="muted">Paste a workspace API key. It stays on this app&apos;s server, sealed in your session; the browser never sees it.</p>
      </div>
      {reason && (
        <p className="notice notice-info" role="status" data-testid="sign-in-reason">
          {REASONS[reason]}
        </p>
      )}
      <form
        className="stack"
        style={{ gap: 12 }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!apiKey.trim()) {
            setFailure({ title: "Enter a key", message: "Paste the API key from Settings → API Keys in your workspace.", field: true });
            return;
          }
          void submit({ apiKey: apiKey.trim() }, "key");
        }}
        method="post"
        action="/api/session"
        noValidate
      >
        <div className="field">
          <label htmlFor={inputId}>API key</label>
          <input
            id={inputId}
            name="apiKey"
            className="input mono"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="svc_sk_live_… or svc_sk_test_…"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            aria-invalid={failure?.field ? true : undefined}
            aria-describedby={failure ? `${inputId}-error` : undefined}
          />
        </div>
        {failure && (
          <div id={`${inputId}-error`} className="state state-error" role="alert" data-testid="sign-in-error">
            <p className="state-title">{failure.title}</p>
            <p className="small">{failure.message}</p>
            {failure.requestId && <RequestId id={failure.requestId} />}
          </div>
        )}
        <button type="submit" className="button" disabled={!ready}>
          {busy === "key" ? "Checking the key…" : "Sign in"}
        </button>
      </form>
      {demos.length > 0 && (
        <section aria-labelledby="demo-heading" className="stack" style={{ gap: 10 }}>
          <div>
            <h2 id="demo-heading">Or try a demo workspace</h2>
            <p className="muted small">Workspaces filled with made-up data, to look around before using your own.</p>
          </div>
          <div className="demo-list">
            {demos.map((d) => (
              <button
                key={d.id}
                type="button"
                className="demo-option"
                disabled={!ready}
                onClick={() => void submit({ demo: d.id }, d.id)}
                data-testid={`demo-${d.id}`}
              >
                <span className="demo-title">
                  {busy === d.id ? "Signing in…" : `${d.id.charAt(0).toUpperCase()}${d.id.slice(1)} demo`} <span className="badge badge-neutral">{d.plan}</span>
                </span>
                <span className="muted small" data-testid="demo-description">
                  {d.description}
                </span>
              </button>
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
