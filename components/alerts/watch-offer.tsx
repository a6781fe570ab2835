"use client";
// Watching offered where it is needed: a rule or the digest set up while the dashboard does not
// watch the workspace would wait for someone to open a page (a rule) or never go (the digest), so
// the form that sets one up says so and offers to start watching there and then ("Start watching and
// add the rule"), saying what watching means, beside the choice to go on without it. The offer's
// words are described by `id`, which the form's buttons point at (aria-describedby).
import { useStartWatching, useWorkspaceInfo } from "@/lib/queries/workspace";
import styles from "./alerts.module.css";

export type WatchOfferState = {
  /** Whether to offer it: the workspace is known, and not watched (off or paused). */
  offered: boolean;
  /** Paused: the Data API refused the kept key; watching again keeps this session's key instead. */
  paused: boolean;
  /** Starts watching with this session's key (throws an Error in the route's words when refused). */
  start: () => Promise<void>;
  starting: boolean;
};

export function useWatchOffer(): WatchOfferState {
  const info = useWorkspaceInfo();
  const startWatching = useStartWatching();
  const watching = info.data?.watching;
  return {
    offered: watching === "off" || watching === "paused",
    paused: watching === "paused",
    start: () => startWatching.mutateAsync(),
    starting: startWatching.isPending,
  };
}

/** What the offer says: why it is made for this form, and what watching means (and how to undo it). */
export function WatchOffer({ id, what, paused }: { id: string; what: "rule" | "digest"; paused: boolean }) {
  const why =
    what === "rule"
      ? "so this rule would be checked only when someone opens the dashboard, not every hour."
      : "so the digest would not be sent: it is read with the workspace's kept key.";
  return (
    <div className={`notice notice-info ${styles.watchOffer}`} id={id} data-testid={`${what}-watch-offer`}>
      <p>
        <strong>{paused ? "Watching is paused," : "The dashboard does not watch this workspace,"}</strong> {why}
      </p>
      <p className="small muted">
        Watching keeps the key you signed in with on the dashboard&apos;s server, encrypted, to read the score and ranking every hour and each day&apos;s
        figures once a day while nobody is signed in. You can stop it at any time under History and watching, which deletes the kept key.
      </p>
    </div>
  );
}
