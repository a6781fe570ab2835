// The bounded expiring map behind the in-process stores, on an injected clock.
import { describe, expect, it } from "vitest";
import { TtlMap } from "./ttl-map";

describe("TtlMap", () => {
  it("keeps a value until its TTL has passed, and writes nothing for a TTL of zero", () => {
    let now = 0;
    const map = new TtlMap<number>({ maxEntries: 10, now: () => now });
    map.set("a", 1, 100);
    map.set("zero", 2, 0);
    now = 99;
    expect(map.get("a")).toBe(1);
    expect(map.get("zero")).toBeUndefined();
    now = 100;
    expect(map.get("a")).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it("when full, drops expired entries before live ones, then the oldest written", () => {
    let now = 0;
    const map = new TtlMap<string>({ maxEntries: 3, now: () => now });
    map.set("short", "s", 10);
    map.set("old", "o", 1000);
    map.set("mid", "m", 1000);
    now = 20;
    map.set("new", "n", 1000);
    expect([map.get("short"), map.get("old"), map.get("mid"), map.get("new")]).toEqual([undefined, "o", "m", "n"]);
    // Rewriting a key makes it the newest: "old" now outlives "mid".
    map.set("old", "o2", 1000);
    map.set("newer", "n2", 1000);
    expect([map.get("old"), map.get("mid"), map.get("new"), map.get("newer")]).toEqual(["o2", undefined, "n", "n2"]);
  });

  it("gives up the entries evictFirst names before older ones it does not", () => {
    const map = new TtlMap<{ running: boolean }>({ maxEntries: 2, now: () => 0, evictFirst: (v) => !v.running });
    map.set("running", { running: true }, 1000);
    map.set("done", { running: false }, 1000);
    map.set("next", { running: true }, 1000);
    expect([map.get("running"), map.get("done"), map.get("next")]).toEqual([{ running: true }, undefined, { running: true }]);
    // With nothing evictFirst names, the oldest goes.
    map.set("last", { running: true }, 1000);
    expect([map.get("running"), map.get("next"), map.get("last")]).toEqual([undefined, { running: true }, { running: true }]);
  });
});
