// Revoked sessions: sign-out records the session's id here until the session would have expired
// anyway, and every request that reads a session (route handlers, the proxy, server components)
// asks this store after unsealing the cookie, so a cookie saved before sign-out is refused.
// The interface is async so a shared store (Redis, when several instances run) can back it; the
// in-process store below is the default.
import "server-only";

export interface RevocationStore {
  /** Marks the session ended until `expiresAt` (epoch ms), when its cookie stops working by itself. */
  revoke(sessionId: string, expiresAt: number): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
}

export type MemoryRevocationOptions = { maxEntries?: number; now?: () => number };

/** Enough for every sign-out of a busy day (an entry is ~100 bytes: ~10 MB at most). */
export const DEFAULT_MAX_REVOCATIONS = 100_000;

/**
 * In-process revocations. Entries leave when their session would have expired; the store never
 * holds more than `maxEntries`: when full, expired entries go first, then the one whose session
 * expires soonest (the least remaining exposure if that cookie were ever replayed).
 */
export function createMemoryRevocationStore(options: MemoryRevocationOptions = {}): RevocationStore & { size(): number } {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_REVOCATIONS;
  const now = options.now ?? Date.now;
  const until = new Map<string, number>();

  function makeRoom(t: number) {
    for (const [id, expiresAt] of until) if (expiresAt <= t) until.delete(id);
    while (until.size >= maxEntries) {
      let soonest: string | undefined;
      let soonestAt = Infinity;
      for (const [id, expiresAt] of until) {
        if (expiresAt < soonestAt) {
          soonest = id;
          soonestAt = expiresAt;
        }
      }
      until.delete(soonest!);
    }
  }

  return {
    async revoke(sessionId, expiresAt) {
      const t = now();
      if (expiresAt <= t) return;
      if (!until.has(sessionId) && until.size >= maxEntries) makeRoom(t);
      until.set(sessionId, Math.max(expiresAt, until.get(sessionId) ?? 0));
    },
    async isRevoked(sessionId) {
      const expiresAt = until.get(sessionId);
      if (expiresAt === undefined) return false;
      if (expiresAt > now()) return true;
      until.delete(sessionId);
      return false;
    },
    size: () => until.size,
  };
}
