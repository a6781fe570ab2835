// The alerts' store on both databases (two instances on PostgreSQL: two pools on one database): a
// workspace's bounds (20 destinations, 50 rules) hold when creates race each other.
import { describe, expect, it } from "vitest";
import { MAX_DESTINATIONS, MAX_RULES } from "./alerts";
import type { StoreKind } from "./database";
import { StoreLimitError } from "./errors";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "./test-stores";

const stores = storesForFile();
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

/** Two instances of the deployment: on PostgreSQL two pools on one database, embedded one store. */
async function twoInstances(kind: StoreKind, now: () => number = () => T0): Promise<[Store, Store]> {
  const config = await stores.config(kind);
  const a = await stores.open(config, { now });
  return [a, kind === "postgres" ? await stores.open(config, { now }) : a];
}

const destinationInput = (i: number) => ({ kind: "webhook" as const, name: `Receiver ${i}`, url: `https://hooks.example.com/${i}`, urlHint: "https://hooks.example.com/…", secret: null });

describe.each(STORE_KINDS)("alerts store (%s)", (kind) => {
  it("60 destinations and then 60 rules created at once, from two instances, keep the workspace's bounds (20 and 50)", async () => {
    const [a, b] = await twoInstances(kind);
    const workspace = (await a.workspaces.workspaceForKey("svc_sk_test_alert_bounds_0001")).id;
    const other = (await a.workspaces.workspaceForKey("svc_sk_test_alert_bounds_0002")).id;

    const destinations = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).alerts.createDestination(workspace, destinationInput(i))));
    expect(destinations.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_DESTINATIONS);
    const refused = destinations.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
    expect(refused).toHaveLength(60 - MAX_DESTINATIONS);
    expect(refused.every((e) => e instanceof StoreLimitError && e.code === "limit_reached")).toBe(true);
    expect(await a.alerts.destinations(workspace)).toHaveLength(MAX_DESTINATIONS);
    // Another workspace's bound is its own.
    expect(await a.alerts.createDestination(other, destinationInput(0))).toMatchObject({ status: "active", });

    const [target] = await a.alerts.destinations(workspace);
    const rules = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).alerts.createRule(workspace, { kind: "score_below", threshold: i, destinationId: target!.id, cooldownMs: 0 })),
    );
    expect(rules.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_RULES);
    expect(rules.filter((r) => r.status === "rejected" && r.reason instanceof StoreLimitError)).toHaveLength(60 - MAX_RULES);
    expect(await a.alerts.rules(workspace)).toHaveLength(MAX_RULES);
    // A destination of another workspace is not found (undefined: the route's 404), however full this one is.
    const foreign = (await a.alerts.destinations(other))[0]!;
    expect(await a.alerts.createRule(workspace, { kind: "score_below", threshold: 1, destinationId: foreign.id, cooldownMs: 0 })).toBeUndefined();
  });
});
