import { describe, expect, it } from "vitest";
import { MemoryCacheStore, SharedRun, SingleFlight, withScope } from "./cache";

describe("MemoryCacheStore", () => {
  it("expires entries after their TTL and evicts the oldest beyond its bound", async () => {
    let now = 0;
    const store = new MemoryCacheStore(2, () => now);
    await store.set("a", 1, 100);
    await store.set("b", 2, 100);
    expect(await store.get("a")).toBe(1);
    now = 100;
    expect(await store.get("a")).toBeUndefined();
    await store.set("c", 3, 100);
    await store.set("d", 4, 100);
    await store.set("e", 5, 100);
    expect(store.size).toBe(2);
    expect(await store.get("c")).toBeUndefined();
    expect(await store.get("e")).toBe(5);
  });
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("SingleFlight", () => {
  it("runs identical concurrent work once and shares the result", async () => {
    const flights = new SingleFlight();
    let runs = 0;
    const gate = deferred<string>();
    const work = async () => {
      runs++;
      return gate.promise;
    };
    const a = flights.run("k", work);
    const b = flights.run("k", work);
    const c = flights.run("other", async () => "x");
    gate.resolve("v");
    expect(await Promise.all([a, b, c])).toEqual(["v", "v", "x"]);
    expect(runs).toBe(1);
    expect(flights.inFlight).toBe(0);
  });

  it("keeps the shared work going while one waiter remains, and aborts it when all left", async () => {
    const flights = new SingleFlight();
    const gate = deferred<string>();
    let workSignal: AbortSignal | undefined;
    const work = async (signal: AbortSignal) => {
      workSignal = signal;
      return gate.promise;
    };
    const one = new AbortController();
    const two = new AbortController();
    const a = flights.run("k", work, one.signal);
    const b = flights.run("k", work, two.signal);
    one.abort();
    await expect(a).rejects.toThrow();
    expect(workSignal?.aborted).toBe(false);
    two.abort();
    await expect(b).rejects.toThrow();
    expect(workSignal?.aborted).toBe(true);
    // A new caller starts fresh work rather than joining the aborted one.
    let fresh = 0;
    await flights.run("k", async () => ++fresh);
    expect(fresh).toBe(1);
  });

  it("passes a failure to every waiter", async () => {
    const flights = new SingleFlight();
    const gate = deferred<string>();
    const a = flights.run("k", () => gate.promise);
    const b = flights.run("k", () => gate.promise);
    gate.reject(new Error("boom"));
    await expect(a).rejects.toThrow("boom");
    await expect(b).rejects.toThrow("boom");
  });
});

describe("SharedRun", () => {
  it("ends when its LAST waiter leaves, not when the first does", async () => {
    const gate = deferred<string>();
    let signal: AbortSignal | undefined;
    let ended = 0;
    const run = new SharedRun(
      async (s) => {
        signal = s;
        return gate.promise;
      },
      () => ended++,
    );
    const [one, two, three] = [new AbortController(), new AbortController(), new AbortController()];
    const joins = [run.join(one.signal), run.join(two.signal), run.join(three.signal)];
    one.abort();
    two.abort();
    await expect(joins[0]).rejects.toThrow();
    await expect(joins[1]).rejects.toThrow();
    expect(signal!.aborted).toBe(false);
    expect(ended).toBe(0);
    three.abort();
    await expect(joins[2]).rejects.toThrow();
    expect(signal!.aborted).toBe(true);
    expect(ended).toBe(1);
  });

  it("is abandoned when its first joiner arrives already aborted (never left running for nobody)", async () => {
    let signal: AbortSignal | undefined;
    const run = new SharedRun(async (s) => {
      signal = s;
      return new Promise<never>(() => undefined);
    });
    const gone = new AbortController();
    gone.abort();
    await expect(run.join(gone.signal)).rejects.toThrow();
    expect(signal!.aborted).toBe(true);
  });

  it("aborts its signal once its work settles, so what the work left running stops with it", async () => {
    let signal: AbortSignal | undefined;
    const run = new SharedRun(async (s) => {
      signal = s;
      throw new Error("one part failed");
    });
    await expect(run.join()).rejects.toThrow("one part failed");
    expect(signal!.aborted).toBe(true);
  });

  it("a waiter without a signal keeps it to the end; one joining after others left still gets the result", async () => {
    const gate = deferred<string>();
    const run = new SharedRun(() => gate.promise);
    const quitter = new AbortController();
    const left = run.join(quitter.signal);
    const stays = run.join();
    quitter.abort();
    await expect(left).rejects.toThrow();
    const late = run.join();
    gate.resolve("v");
    expect(await Promise.all([stays, late])).toEqual(["v", "v"]);
  });
});

describe("withScope", () => {
  it("aborts its signal when the parent aborts and when the work ends", async () => {
    const parent = new AbortController();
    let inner: AbortSignal | undefined;
    await withScope(parent.signal, async (s) => {
      inner = s;
    });
    expect(inner!.aborted).toBe(true);
    expect(parent.signal.aborted).toBe(false);
    const gate = deferred<void>();
    const running = withScope(parent.signal, async (s) => {
      inner = s;
      await gate.promise;
    });
    parent.abort();
    expect(inner!.aborted).toBe(true);
    gate.resolve();
    await running;
  });
});
