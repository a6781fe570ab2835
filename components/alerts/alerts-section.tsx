"use client";
// Settings' "Alerts and the weekly digest": the destinations, the rules with their preview, the
// digest and the deliveries, under one heading. Alerts are checked and the digest sent only while the
// dashboard watches the workspace (Settings' "History and watching"); when it does not, or watching
// is paused, this says so plainly and links to that card, and every form still works (what is set up
// takes effect once watching is on).
import { useWorkspaceInfo, WATCHING_CARD_ID } from "@/components/settings/watching-card";
import { useAwaitedDeliveries } from "@/lib/queries/alerts";
import { DeliveriesCard } from "./deliveries-card";
import { DestinationsCard } from "./destinations-card";
import { DigestCard } from "./digest-card";
import { RulesCard } from "./rules-card";
import styles from "./alerts.module.css";

function WatchingNotice() {
  const workspace = useWorkspaceInfo();
  const watching = workspace.data?.watching;
  if (!watching || watching === "on") return null;
  const link = <a href={`#${WATCHING_CARD_ID}`}>History and watching</a>;
  return (
    <div className="notice notice-warning" data-testid="alerts-watching">
      {watching === "off" ? (
        <p>
          <strong>Watching is off, so no rule is checked and no digest is sent.</strong> Alerts run only while the dashboard watches this workspace: turn it on under {link}. What you set up here
          is kept, and takes effect from then.
        </p>
      ) : (
        <p>
          <strong>Watching is paused, so no rule is checked and no digest is sent.</strong>
          {workspace.data?.paused_reason ? ` ${workspace.data.paused_reason}` : ""} Turn watching on again under {link}.
        </p>
      )}
    </div>
  );
}

export function AlertsSection() {
  const { awaited, await: awaitDelivery, seen } = useAwaitedDeliveries();
  return (
    <section className={styles.section} aria-labelledby="alerts-title" data-testid="alerts-section">
      <div className={styles.sectionHead}>
        <h2 id="alerts-title">Alerts and the weekly digest</h2>
        <p className="muted">Be told when the score, the ranking, mentions or visitors move, in Slack or at your own URL, and get the week in one message every Monday.</p>
      </div>
      <WatchingNotice />
      <div className={styles.columns}>
        <div className="stack">
          <DestinationsCard onTestSent={awaitDelivery} />
          <DigestCard />
        </div>
        <RulesCard />
      </div>
      <DeliveriesCard awaited={awaited} onSeen={seen} />
    </section>
  );
}
