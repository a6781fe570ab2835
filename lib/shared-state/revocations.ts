// Revoked sessions: sign-out records the session's id here until the session would have expired
// anyway, and every request that reads a session (route handlers, the proxy, server components)
// asks this store after unsealing the cookie, so a cookie saved before sign-out is refused.
// A key's sessions can be ended all at once too (a key unlinked from its workspace, a workspace
// deleted): the key, by a reference that is not the key (the store's id of its link), is recorded
// with the latest expiry a session of it started until now can have; a session of that key expiring
// no later is refused, one started afterwards is not. Key entries live among the session ids (as
// `key:<ref>`; a session id has no colon) and leave in the same way.
// The interface is async so a shared store (Redis, when several instances run) can back it; the
// in-process store below is the default.
import "server-only";

/** What a revocation check needs of a session: its id, and when it ends by itself. */
export type RevocableSession = { sessionId: string; expiresAt: number };

export interface RevocationStore {
  /** Marks the session ended until `expiresAt` (epoch ms), when its cookie stops working by itself. */
  revoke(sessionId: string, expiresAt: number): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
  /**
   * Ends every session of one key that expires at or before `until`: with `until` = now + a
   * session's lifetime, every session of the key started until now. `keyRef` names the key, never
   * being it.
   */
  revokeKey(keyRef: string, until: number): Promise<void>;
  /**
   * Whether `session` is revoked, by its id or by its key's revocation. `keyRef` gives the session's
   * key reference; it is asked for only when some key's sessions were ended that could include this
   * one (its making may need the store), so most requests never call it.
   */
  isSessionRevoked(session: RevocableSession, keyRef: () => Promise<string | undefined>): Promise<boolean>;
}

/** The entry of a key's revocation among the session ids. */
export const keyEntry = (keyRef: string) => `key:${keyRef}`;

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
  /** The latest `until` of any key revocation: a session expiring after it is not covered by one. */
  let keysUntil = 0;

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

  function record(id: string, expiresAt: number): void {
    const t = now();
    if (expiresAt <= t) return;
    if (!until.has(id) && until.size >= maxEntries) makeRoom(t);
    until.set(id, Math.max(expiresAt, until.get(id) ?? 0));
  }

  /** The entry's expiry while it lasts, else undefined (and it leaves). */
  function live(id: string): number | undefined {
    const expiresAt = until.get(id);
    if (expiresAt === undefined) return undefined;
    if (expiresAt > now()) return expiresAt;
    until.delete(id);
    return undefined;
  }

  return {
    async revoke(sessionId, expiresAt) {
      record(sessionId, expiresAt);
    },
    async isRevoked(sessionId) {
      return live(sessionId) !== undefined;
    },
    async revokeKey(keyRef, keyUntil) {
      record(keyEntry(keyRef), keyUntil);
      keysUntil = Math.max(keysUntil, keyUntil);
    },
    async isSessionRevoked(session, keyRef) {
      if (live(session.sessionId) !== undefined) return true;
      if (keysUntil < session.expiresAt) return false;
      const ref = await keyRef();
      const keyUntil = ref === undefined ? undefined : live(keyEntry(ref));
      return keyUntil !== undefined && keyUntil >= session.expiresAt;
    },
    size: () => until.size,
  };
}
