// Fake time over real I/O, for tests of timing behaviour (retry backoff, Retry-After, rate-limit
// windows, timeouts) that would otherwise wait for real: the scheduler's and the sandbox's timers and
// clocks are faked, while sockets, and the sandbox on the other end of them, run for real.
import { vi } from "vitest";

/** A fetch, as the upstream client takes it. */
type Transport = (url: string, init: RequestInit) => Promise<Response>;

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

/**
 * Wraps a transport (a fetch) to count its requests from sending until their body is read to the end
 * or given up: what `onFakeTime` needs to know whether anything is on the wire.
 */
export function countedTransport(transport: Transport): { fetch: Transport; inFlight: () => number } {
  let inFlight = 0;
  const fetch: Transport = async (url, init) => {
    inFlight++;
    let counted = true;
    const done = () => {
      if (counted) inFlight--;
      counted = false;
    };
    let res: Response;
    try {
      res = await transport(url, init);
    } catch (error) {
      done();
      throw error;
    }
    if (!res.body) {
      done();
      return res;
    }
    // The body may still be arriving when the headers are in (a streaming transport): the request
    // stays on the wire until its last byte is read.
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            done();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          done();
          controller.error(error);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch, inFlight: () => inFlight };
}
