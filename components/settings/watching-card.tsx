"use client";
// Settings' "History and watching": whether the dashboard watches this workspace (off, on, or paused
// and why), what turning it on means (the key kept sealed on the server so history is collected
// hourly while nobody is signed in; off deletes it at once), the keys linked to the workspace (hints
// only; every one but this session's can be unlinked: linked-keys.tsx), a form to link another key
// of it (one that had a workspace of its own here brings its history, notes, views and alerts along),
// and where its history begins. Results are announced in a live region; errors are said in plain
// words next to what caused them.
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useDisplayTimeZone } from "@/components/range/display-time-zone";
import { Card } from "@/components/ui/card";
import { formatDate } from "@/lib/format/format";
import { ALERTS_KEY } from "@/lib/queries/alerts";
import { linkKey as linkWorkspaceKey, OFFLINE, startWatching, stopWatching, useWorkspaceInfo, WORKSPACE_KEY, type Watching } from "@/lib/queries/workspace";
import { LinkedKeys } from "./linked-keys";

export { useWorkspaceInfo };

/** The card's element id: other settings (the alerts) link to it. */
export const WATCHING_CARD_ID = "watching";

const STATE_TEXT: Record<Watching, { badge: string; badgeClass: string; text: string }> = {
  off: {
    badge: "Off",
    badgeClass: "badge-neutral",
    text: "History is kept only when someone opens the score or the ranking.",
  },
  on: {
    badge: "On",
    badgeClass: "badge-success",
    text: "The score and ranking are collected every hour, and the day's figures once a day (yesterday's kept in every zone your team reads the insights in, so the morning's first visit is answered from the store), even while nobody is signed in.",
  },
  paused: {
    badge: "Paused",
    badgeClass: "badge-danger",
    text: "Nothing is collected in the background until watching is turned on again with a working key.",
  },
};

export function WatchingCard() {
  const tz = useDisplayTimeZone();
  const id = useId();
  const queryClient = useQueryClient();
  const query = useWorkspaceInfo();
  const info = query.data ?? null;
  const loadError = query.error ? query.error.message : null;
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [toggleError, setToggleError] = useState<string | null>(null);
  const [key, setKey] = useState("");
  const [linkError, setLinkError] = useState<string | null>(null);
  const [linking, setLinking] = useState(false);

  const load = () => queryClient.invalidateQueries({ queryKey: WORKSPACE_KEY });

  async function setWatching(on: boolean): Promise<void> {
    setBusy(true);
    setToggleError(null);
    setStatus("");
    try {
      await (on ? startWatching() : stopWatching());
      // The alert rules say when they are next checked, which watching decides.
      await Promise.all([load(), queryClient.invalidateQueries({ queryKey: ALERTS_KEY })]);
      setStatus(on ? "Watching is on: your key is kept sealed on this server." : "Watching is off: the kept key was deleted.");
    } catch (error) {
      setToggleError(error instanceof TypeError ? OFFLINE : error instanceof Error ? error.message : OFFLINE);
    } finally {
      setBusy(false);
    }
  }

  async function linkKey(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setLinkError(null);
    setStatus("");
    if (key.trim() === "") {
      setLinkError("Paste the other API key of this workspace first.");
      return;
    }
    setLinking(true);
    try {
      const linked = await linkWorkspaceKey(key);
      setKey("");
      if (linked.merged) {
        // Its history, notes, views and alerts are this workspace's now: every answer on the page may have changed.
        await queryClient.invalidateQueries();
        setStatus(
          `Key ${linked.key_hint} linked. It had been used on its own: the history, notes, saved views and alerts kept for it are now this workspace's.`,
        );
      } else {
        await load();
        setStatus(`Key ${linked.key_hint} linked: signing in with it opens this workspace.`);
      }
    } catch (error) {
      setLinkError(error instanceof TypeError ? OFFLINE : error instanceof Error ? error.message : OFFLINE);
    } finally {
      setLinking(false);
    }
  }

  const state = info ? STATE_TEXT[info.watching] : null;
  return (
    <Card
      title="History and watching"
      testId="watching-card"
      id={WATCHING_CARD_ID}
      description="Workspace Analytics keeps only today's score and ranking; the dashboard keeps their history, and the daily figures, for this workspace."
    >
      {loadError && (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      )}
      {!info && !loadError && <p className="small muted">Loading…</p>}
      {info && state && (
        <div className="stack" style={{ gap: 16 }}>
          <div className="watching-facts">
            <p data-testid="watching-state">
              <span className="field-label">Watching</span> <span className={`badge ${state.badgeClass}`}>{state.badge}</span> {state.text}
            </p>
            {info.watching === "paused" && info.paused_reason && (
              <p data-testid="paused-reason">
                <span className="field-label">Why it is paused</span> {info.paused_reason}
              </p>
            )}
            <p data-testid="history-since">
              <span className="field-label">History since</span>{" "}
              {info.history_since ? formatDate(info.history_since, tz) : "no history yet: it begins with the first score or ranking kept."}
            </p>
          </div>
          <p className="small muted" id={`${id}-means`}>
            Turning watching on keeps this key on the dashboard&apos;s server, encrypted, so history is collected every hour while nobody is signed in. Turning
            it off deletes the kept key at once; the history already kept stays. Either way the insights&apos; figures of closed days are kept once read, and
            answered from here; today is read from Workspace Analytics, and a day younger than a week is checked again.
          </p>
          <div className="card-actions" style={{ flexWrap: "wrap" }}>
            {info.watching !== "on" && (
              <button
                type="button"
                className="button"
                onClick={() => void setWatching(true)}
                disabled={busy}
                aria-describedby={`${id}-means`}
                data-testid="watch-on"
              >
                {busy ? "Saving…" : info.watching === "paused" ? "Watch again with this key" : "Start watching"}
              </button>
            )}
            {info.watching !== "off" && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void setWatching(false)}
                disabled={busy}
                aria-describedby={`${id}-means`}
                data-testid="watch-off"
              >
                {busy ? "Saving…" : "Stop watching"}
              </button>
            )}
          </div>
          {toggleError && (
            <p className="field-error" role="alert">
              {toggleError}
            </p>
          )}
          <LinkedKeys
            keys={info.linked_keys}
            onUnlinked={(message) => {
              setLinkError(null);
              setStatus(message);
            }}
          />
          <form onSubmit={(e) => void linkKey(e)} noValidate className="link-key-form" data-testid="link-key-form">
            <label className="field-label" htmlFor={`${id}-key`}>
              Link another key of this workspace
            </label>
            <div className="link-key-row">
              <input
                id={`${id}-key`}
                className="input mono"
                type="password"
                autoComplete="off"
                spellCheck={false}
                placeholder="svc_sk_live_…"
                value={key}
                onChange={(e) => setKey(e.target.value)}
                aria-invalid={linkError ? true : undefined}
                aria-describedby={`${id}-key-help${linkError ? ` ${id}-key-error` : ""}`}
                data-testid="link-key-input"
              />
              <button type="submit" className="button button-secondary" disabled={linking} data-testid="link-key-submit">
                {linking ? "Checking the key…" : "Link key"}
              </button>
            </div>
            {linkError && (
              <p id={`${id}-key-error`} className="field-error" role="alert" data-testid="link-key-error">
                {linkError}
              </p>
            )}
            <p id={`${id}-key-help`} className="small muted">
              A rotated or second key of the same workspace keeps this history. It must work, and open the same workspace as the key you signed in with. If it
              was used on its own before, what was kept for it joins this workspace.
            </p>
          </form>
        </div>
      )}
      <p className="small" role="status" aria-live="polite" data-testid="watching-status" style={status ? { marginTop: 12 } : undefined}>
        {status}
      </p>
    </Card>
  );
}
