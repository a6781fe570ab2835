// What every RevocationStore must do, on an injected clock: the in-process store (revocations.test.ts)
// and the Redis one (lib/shared-state/redis/revocations.test.ts) run the same checks.
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

    it("a key's revocation ends its sessions started until then, not one started afterwards nor another key's; its reference is asked for only then", async () => {
      let t = 1_000;
      const store = await make(() => t);
      const asked: string[] = [];
      const ref = (r: string) => async () => {
        asked.push(r);
        return r;
      };
      // Sessions of 10_000 ms: one started at 1_000, another at 3_000.
      const early = { sessionId: "early", expiresAt: 11_000 };
      expect(await store.isSessionRevoked(early, ref("k1"))).toBe(false);
      // No key revoked yet: nobody's reference was needed.
      expect(asked).toEqual([]);
      t = 2_000;
      await store.revokeKey("k1", 12_000);
      expect(await store.isSessionRevoked(early, ref("k1"))).toBe(true);
      expect(await store.isSessionRevoked({ sessionId: "other-key", expiresAt: 11_500 }, ref("k2"))).toBe(false);
      // Signed in again after the revocation: not covered, and its reference not even needed.
      asked.length = 0;
      t = 3_000;
      expect(await store.isSessionRevoked({ sessionId: "later", expiresAt: 13_000 }, ref("k1"))).toBe(false);
      expect(asked).toEqual([]);
      // A reference that cannot be made (no store) revokes nothing by key; the id still counts.
      expect(await store.isSessionRevoked(early, async () => undefined)).toBe(false);
      await store.revoke("early", 11_000);
      expect(await store.isSessionRevoked(early, async () => undefined)).toBe(true);
      // The key's entry leaves once every session it covers would have ended anyway.
      t = 12_000;
      expect(await store.isSessionRevoked({ sessionId: "x", expiresAt: 12_000 }, ref("k1"))).toBe(false);
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
