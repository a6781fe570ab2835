"use client";
// Settings' "Alerts and the weekly digest": the destinations, the rules with their preview, the
// digest and the deliveries, under one heading. Alerts are checked on the dashboard's own schedule
// and the digest sent only while the dashboard watches the workspace (Settings' "History and
// watching"); when it does not, or watching is paused, this says so plainly with a button that starts
// watching right here and a link to that card, and every form still works (the rules' and the
// digest's forms offer to start watching too).
import { useState } from "react";
import { useWorkspaceInfo, WATCHING_CARD_ID } from "@/components/settings/watching-card";
import { useAwaitedDeliveries } from "@/lib/queries/alerts";
import { DeliveriesCard } from "./deliveries-card";
import { DestinationsCard } from "./destinations-card";
import { DigestCard } from "./digest-card";
import { RulesCard } from "./rules-card";
import styles from "./alerts.module.css";
import { useWatchOffer } from "./watch-offer";

function WatchingNotice() {
  const workspace = useWorkspaceInfo();
  const watch = useWatchOffer();
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState(false);
  const watching = workspace.data?.watching;
  if (started && watching === "on") {
    return (
      <p className="notice notice-info" role="status" data-testid="alerts-watching">
        Watching is on: rules are checked after every snapshot the dashboard keeps, and the digest goes on Mondays.
      </p>
    );
  }
  if (!watching || watching === "on") return null;
  const link = <a href={`#${WATCHING_CARD_ID}`}>History and watching</a>;
  const start = async () => {
    setError(null);
    try {
      await watch.start();
      setStarted(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Watching could not be turned on. Try again.");
    }
  };
  return (
    <div className="notice notice-warning" data-testid="alerts-watching">
      {watching === "off" ? (
        <p>
          <strong>Watching is off, so rules are checked only when someone opens the dashboard, and no digest is sent.</strong> What watching keeps and how to
          stop it: {link}.
        </p>
      ) : (
        <p>
          <strong>Watching is paused, so rules are checked only when someone opens the dashboard, and no digest is sent.</strong>
          {workspace.data?.paused_reason ? ` ${workspace.data.paused_reason}` : ""} More under {link}.
        </p>
      )}
      <div className={styles.actions}>
        <button type="button" className="button button-small" onClick={() => void start()} disabled={watch.starting} data-testid="alerts-watch-on">
          {watch.starting ? "Starting to watch…" : watching === "paused" ? "Watch again with this key" : "Start watching"}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** `emailAvailable`: the dashboard has a mail server (SMTP_URL), so e-mail destinations can be added. */
export function AlertsSection({ emailAvailable = false }: { emailAvailable?: boolean }) {
  const { awaited, await: awaitDelivery, seen } = useAwaitedDeliveries();
  return (
    <section className={styles.section} aria-labelledby="alerts-title" data-testid="alerts-section">
      <div className={styles.sectionHead}>
        <h2 id="alerts-title">Alerts and the weekly digest</h2>
        <p className="muted">
          Be told when the score, the ranking, mentions or visitors move, in Slack, at your own URL{emailAvailable ? " or by e-mail" : ""}, and get the week in
          one message every Monday.
        </p>
      </div>
      <WatchingNotice />
      <div className={styles.columns}>
        <div className="stack">
          <DestinationsCard onTestSent={awaitDelivery} emailAvailable={emailAvailable} />
          <DigestCard onSent={awaitDelivery} />
        </div>
        <RulesCard />
      </div>
      <DeliveriesCard awaited={awaited} onSeen={seen} />
    </section>
  );
}
