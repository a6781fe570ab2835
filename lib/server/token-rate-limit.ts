// Each token's requests a minute: TOKEN_REQUESTS_PER_MINUTE in a fixed window per token, counted in
// this process (the clock injected, for tests). Bounded: windows that ended are dropped when the map
// is full, and at worst the oldest entry goes.
export const TOKEN_REQUESTS_PER_MINUTE = 120;
const WINDOW_MS = 60_000;
const MAX_TRACKED = 10_000;

export type TokenLimiter = {
  /** Counts one request of token `id`: null when it may go on, else the seconds until it may (Retry-After). */
  take(id: string): number | null;
};

export function createTokenLimiter(options: { now: () => number; perMinute?: number }): TokenLimiter {
  const limit = options.perMinute ?? TOKEN_REQUESTS_PER_MINUTE;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(id) {
      const now = options.now();
      let window = windows.get(id);
      if (!window || now - window.start >= WINDOW_MS) {
        if (!window && windows.size >= MAX_TRACKED) {
          for (const [key, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(key);
          if (windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value!);
        }
        window = { start: now, count: 0 };
        windows.set(id, window);
      }
      if (window.count >= limit) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
      window.count += 1;
      return null;
    },
  };
}
