// Alerts as the store keeps them: destinations (their URL and signing secret sealed, sealed.ts),
// rules with their state, every check of a rule, the events to send and their delivery to each
// destination with every attempt, and the weekly digest's destination and share link; one file of queries each
// (destinations.ts, rules.ts, deliveries.ts, events.ts, digest.ts), `store.alerts` all of them.
// Exactly once across instances rests on three unique keys: a rule's check per basis (the snapshot or
// day it looked at: the instance whose insert makes the row acts on it), an event per `dedupe_key`,
// and a delivery per event and destination; sending is claimed per destination (deliveries.ts).
// Every writer of a destination's deliveries locks the destination's row first (the bound of waiting
// deliveries is counted under it), and a workspace's bounds are counted under its row's lock
// (workspace-lock.ts). Times are passed in or read from the injected clock, so all of it runs on fake
// time. Every function of a workspace's data takes the workspace first and touches no other
// workspace's rows.
import "server-only";
import { deliveryQueries } from "./deliveries";
import { destinationQueries } from "./destinations";
import { digestQueries } from "./digest";
export type { DigestSetting } from "./digest";
import { eventQueries } from "./events";
import { ruleQueries } from "./rules";
import type { AlertsDeps } from "./shared";

export {
  MANUAL_SEND_WINDOW_MS,
  MANUAL_SENDS_PER_WINDOW,
  MAX_DESTINATIONS,
  MAX_RULES,
  MAX_WAITING_PER_DESTINATION,
  REST_MS,
  type AlertsDeps,
  type Attempt,
  type Delivery,
  type Destination,
  type OpenDestination,
  type Rule,
  type RuleChanges,
} from "./shared";

export type Alerts = ReturnType<typeof alertsContext>;

export function alertsContext(deps: AlertsDeps) {
  return { ...destinationQueries(deps), ...ruleQueries(deps), ...deliveryQueries(deps), ...eventQueries(deps), ...digestQueries(deps) };
}
