// Fake time over real I/O, for tests of timing behaviour (retry backoff, Retry-After, rate-limit
// windows, timeouts) that would otherwise wait for real: the scheduler's and the sandbox's timers and
// clocks are faked, while sockets, and the sandbox on the other end of them, run for real.
import { vi } from "vitest";

/** One turn of the real event loop (setImmediate is never faked): sockets are read and written. */
export const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `work` on fake time, as a discrete-event simulation over real I/O: setTimeout, clearTimeout
 * and Date are faked (the scheduler's waits and retries, its clock, and the sandbox's clock), real
 * sockets still run. While a request is on the wire (`busy() > 0`) the loop turns and the clock
 * stands still; when none is, the clock jumps to the next timer and fires it. So minutes of rate-limit waiting take a
 * fraction of a second, and a request's latency is zero on the fake clock.
 */
export async function onFakeTime<T>(work: () => Promise<T>, busy: () => number): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    let done = false;
    const result = work().finally(() => {
      done = true;
    });
    while (!done) {
      await ioTurn();
      // Below 0 only for a moment, when a caller gave up before the far end noticed: nothing is on the wire.
      if (busy() <= 0 && vi.getTimerCount() > 0) {
        vi.advanceTimersToNextTimer();
      }
    }
    return await result;
  } finally {
    vi.useRealTimers();
  }
}
