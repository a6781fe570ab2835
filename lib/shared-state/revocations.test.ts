import { describe, expect, it } from "vitest";
import { revocationContract } from "./revocations.contract";
import { createMemoryRevocationStore } from "./revocations";

revocationContract("memory revocation store: the contract", (now) => createMemoryRevocationStore({ now }));

describe("memory revocation store", () => {
  it("forgets an entry once its session has expired, and never records one already expired", async () => {
    let t = 1_000;
    const store = createMemoryRevocationStore({ now: () => t });
    await store.revoke("s1", 5_000);
    await store.revoke("old", 900);
    expect(store.size()).toBe(1);
    t = 5_000;
    expect(await store.isRevoked("s1")).toBe(false);
    expect(store.size()).toBe(0);
  });

  it("stays within its bound: expired entries go first, then the one expiring soonest", async () => {
    let t = 0;
    const store = createMemoryRevocationStore({ maxEntries: 3, now: () => t });
    await store.revoke("a", 100);
    await store.revoke("b", 300);
    await store.revoke("c", 200);
    await store.revoke("d", 400);
    expect(store.size()).toBe(3);
    // "a" expired soonest and was the one dropped.
    expect(await store.isRevoked("a")).toBe(false);
    expect(await store.isRevoked("b")).toBe(true);
    t = 250;
    await store.revoke("e", 500);
    // "c" had expired by now; nothing live had to go.
    expect(store.size()).toBe(3);
    expect([await store.isRevoked("b"), await store.isRevoked("d"), await store.isRevoked("e")]).toEqual([true, true, true]);
    for (let i = 0; i < 1000; i++) await store.revoke(`x${i}`, 1000 + i);
    expect(store.size()).toBe(3);
  });
});
