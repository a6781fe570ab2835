// A bound on how long a Redis command may take before the caller treats Redis as away (and falls
// back to what it can do alone). Real time on purpose (node:timers, which fake timers leave alone): a
// round trip takes real time whatever clock the rest of the app is on.
import { clearTimeout, setImmediate, setTimeout } from "node:timers";

export class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = "RedisTimeoutError";
  }
}

/**
 * `promise`, or a RedisTimeoutError after `ms`. `onLate` gets a value that arrives after the
 * deadline (e.g. to give back a request admitted by a reply nobody waited for).
 *
 * When the timer fires, the verdict waits for one more turn of the loop: after a stall of the event
 * loop (a busy Next server) the timer runs before the poll phase reads a reply that has been sitting
 * in the socket all along, and that reply must win.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, onLate?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new RedisTimeoutError(ms));
      });
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          resolve(value);
        } else onLate?.(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
