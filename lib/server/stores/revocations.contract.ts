// What every RevocationStore must do, on an injected clock: the in-process store (revocations.test.ts)
// and the Redis one (lib/server/redis/revocations.test.ts) run the same checks.
import { describe, expect, it } from "vitest";
import type { RevocationStore } from "./revocations";

/** `make` gives a fresh, empty store reading the clock it is given. */
export function revocationContract(name: string, make: (now: () => number) => RevocationStore | Promise<RevocationStore>): void {
  describe(name, () => {
    it("a revoked session stays revoked until its own expiry, and only that session", async () => {
      let t = 1_000;
      const store = await make(() => t);
      await store.revoke("s1", 5_000);
      expect(await store.isRevoked("s1")).toBe(true);
      expect(await store.isRevoked("s2")).toBe(false);
      t = 4_999;
      expect(await store.isRevoked("s1")).toBe(true);
      t = 5_000;
      expect(await store.isRevoked("s1")).toBe(false);
    });

    it("does not record a session that has already expired", async () => {
      const store = await make(() => 10_000);
      await store.revoke("old", 9_000);
      await store.revoke("now", 10_000);
      expect(await store.isRevoked("old")).toBe(false);
      expect(await store.isRevoked("now")).toBe(false);
    });
  });
}
