import { describe, expect, it } from "vitest";
import { keyVerdictContract } from "./key-verdicts.contract";
import { createMemoryKeyVerdictStore } from "./key-verdicts";

keyVerdictContract("memory key verdicts: the contract", (now) => createMemoryKeyVerdictStore({ now }));

describe("memory key verdicts", () => {
  it("stays within its bound, the oldest written going first", async () => {
    const store = createMemoryKeyVerdictStore({ now: () => 0, maxEntries: 3 });
    for (const name of ["a", "b", "c", "d"]) await store.set([{ name, verdict: "ok" }], 1_000);
    expect(store.size()).toBe(3);
    expect(await store.get(["a", "b", "d"])).toEqual([undefined, "ok", "ok"]);
  });
});
