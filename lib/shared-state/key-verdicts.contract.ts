// What every KeyVerdictStore must do, on an injected clock: the in-process store (key-verdicts.test.ts)
// and the Redis ones (lib/shared-state/redis/key-verdicts.test.ts) run the same checks.
import { describe, expect, it } from "vitest";
import type { KeyVerdictStore } from "./key-verdicts";

/** `make` gives a fresh, empty store reading the clock it is given. */
export function keyVerdictContract(name: string, make: (now: () => number) => KeyVerdictStore | Promise<KeyVerdictStore>): void {
  describe(name, () => {
    it("answers each name's verdict in the order asked, until it lapses; names never written are undefined", async () => {
      let t = 1_000_000;
      const store = await make(() => t);
      expect(await store.get([])).toEqual([]);
      await store.set(
        [
          { name: "k1", verdict: "ok" },
          { name: "k1|/intelligence/score", verdict: "refused" },
        ],
        300_000,
      );
      await store.set([{ name: "k2", verdict: "unknown" }], 60_000);
      expect(await store.get(["k1|/intelligence/score", "nobody", "k1", "k2"])).toEqual(["refused", undefined, "ok", "unknown"]);
      t += 59_999;
      expect(await store.get(["k2"])).toEqual(["unknown"]);
      t += 1;
      expect(await store.get(["k1", "k2"])).toEqual(["ok", undefined]);
      t += 240_000;
      expect(await store.get(["k1", "k1|/intelligence/score"])).toEqual([undefined, undefined]);
    });

    it("a new verdict replaces the old one, with its own lifetime", async () => {
      let t = 5_000;
      const store = await make(() => t);
      await store.set([{ name: "k", verdict: "ok" }], 300_000);
      t += 100_000;
      await store.set([{ name: "k", verdict: "refused" }], 300_000);
      expect(await store.get(["k"])).toEqual(["refused"]);
      t += 250_000;
      expect(await store.get(["k"])).toEqual(["refused"]);
    });
  });
}
