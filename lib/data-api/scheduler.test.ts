import { describe, expect, it } from "vitest";
import { DataApiError } from "./errors";
import { RateBudget, type KeyBudget } from "./rate-budget";
import { createScheduler, type Scheduler } from "./scheduler";

const fail = (status: number, code = "x") => new DataApiError({ status, code, message: code });

/** Schedules a request that only notes whether it ran, with the controller that cancels it. */
function scheduleAbortable(scheduler: Scheduler) {
  const controller = new AbortController();
  let ran = false;
  const pending = scheduler.schedule(
    async () => {
      ran = true;
    },
    { signal: controller.signal },
  );
  return { controller, pending, ran: () => ran };
}

describe("createScheduler", () => {
  it("retries 5xx and network errors, then succeeds", async () => {
    const scheduler = createScheduler({ minBackoffMs: 1, maxBackoffMs: 2 });
    const errors = [fail(500), fail(502, "network_error")];
    let attempts = 0;
    const result = await scheduler.schedule(async () => {
      attempts++;
      const e = errors.shift();
      if (e) throw e;
      return "ok";
    });
    expect(result).toBe("ok");
    expect(attempts).toBe(3);
  });

  it.each([
    [400, "invalid_parameter"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not_found"],
    [502, "unexpected_response"],
    [504, "upstream_timeout"],
    [502, "redirect_rejected"],
  ])("does not retry %i %s", async (status, code) => {
    const scheduler = createScheduler({ minBackoffMs: 1 });
    let attempts = 0;
    await expect(
      scheduler.schedule(async () => {
        attempts++;
        throw fail(status, code);
      }),
    ).rejects.toMatchObject({ status, code });
    expect(attempts).toBe(1);
  });

  it("stops after the bounded number of retries", async () => {
    const scheduler = createScheduler({ retries: 2, minBackoffMs: 1, maxBackoffMs: 2 });
    let attempts = 0;
    await expect(
      scheduler.schedule(async () => {
        attempts++;
        throw fail(503);
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(attempts).toBe(3);
  });

  it("fails fast with 503 rate_limited when the budget would make a request wait too long", async () => {
    const scheduler = createScheduler({ budget: { perSecond: 1, perMinute: 1 }, fixed: true, maxQueueWaitMs: 1000 });
    await scheduler.schedule(async () => "first");
    const error = await scheduler.schedule(async () => "second").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: "rate_limited" });
    expect((error as DataApiError).retryAfter).toBeGreaterThanOrEqual(59);
  });

  it("an aborted request leaves the queue without running", async () => {
    const scheduler = createScheduler({ budget: { perSecond: 1, perMinute: 100 }, fixed: true });
    await scheduler.schedule(async () => "first");
    const { controller, pending, ran } = scheduleAbortable(scheduler);
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(ran()).toBe(false);
  });

  it("gives back a request that a slow (shared) budget admitted after its caller gave up", async () => {
    let admit!: () => void;
    const failed: string[] = [];
    const keyBudget: KeyBudget<string> = {
      admit: () => new Promise((resolve) => (admit = () => resolve({ admitted: true, token: "req-1" }))),
      recordResponse: () => undefined,
      recordFailure: (_now, token) => void failed.push(token),
      noteInteractive: () => undefined,
      snapshot: (now) => new RateBudget().snapshot(now),
    };
    const scheduler = createScheduler({ keyBudget });
    const { controller, pending, ran } = scheduleAbortable(scheduler);
    await new Promise((r) => setImmediate(r));
    // The admission is on its way (a round trip to Redis) when the caller gives up...
    controller.abort();
    await expect(pending).rejects.toThrow();
    // ...and its reply admits the request: nobody will send it, so it is given back.
    admit();
    await new Promise((r) => setImmediate(r));
    expect(ran()).toBe(false);
    expect(failed).toEqual(["req-1"]);
  });

  it("admits background requests (the history collector) after bulk and interactive ones, asking the budget for bulk", async () => {
    const releases: Array<() => void> = [];
    const asked: string[] = [];
    const keyBudget: KeyBudget<string> = {
      admit: (_now, priority) =>
        new Promise((resolve) => {
          asked.push(priority);
          releases.push(() => resolve({ admitted: true, token: priority }));
        }),
      recordResponse: () => undefined,
      recordFailure: () => undefined,
      noteInteractive: () => undefined,
      snapshot: (now) => new RateBudget().snapshot(now),
    };
    const scheduler = createScheduler({ keyBudget });
    const sent: string[] = [];
    const go = (label: string, priority: "interactive" | "bulk" | "background") => scheduler.schedule(async () => void sent.push(label), { priority });
    // The first admission holds the queue (one at a time) while the others line up behind it.
    const all = [go("first", "background"), go("collector", "background"), go("export", "bulk"), go("person", "interactive")];
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setImmediate(r));
      releases.shift()!();
    }
    await Promise.all(all);
    expect(sent).toEqual(["first", "person", "export", "collector"]);
    expect(asked).toEqual(["bulk", "interactive", "bulk", "bulk"]);
  });
});
