// Resolving the names of alert destinations without libuv's thread pool. `dns.lookup` is getaddrinfo
// on the pool's four threads, which every other `dns.lookup` of the process (the Data API's new
// connections, PostgreSQL, Redis) and fs, zlib and crypto share: a name whose name server never
// answers holds a thread for 10-20 s, and a few of them, typed by users, stall the whole server.
// Here names go to c-ares (`dns.promises.Resolver`: sockets on the event loop), A and AAAA at once,
// each lookup under one deadline counted from the call (2 s, waiting included), at most CONCURRENCY
// lookups at once and MAX_WAITING waiting; a lookup that cannot start before its deadline fails as a
// timeout, one beyond the queue fails at once. Each slot owns its Resolver, so cancelling the lookup
// that ran out of time (`cancel()` ends every query of a Resolver) cancels only that one, and the slot
// is free again only when c-ares has really let go of it: the cap is the number of lookups in flight.
// What getaddrinfo would have answered without DNS is kept deliberately, since c-ares asks DNS only:
// `localhost` and `*.localhost` are loopback (RFC 6761; a name server may answer anything for them),
// and a name in the hosts file (/etc/hosts, e.g. a receiver named by Compose's `extra_hosts`) has the
// addresses written there, as with getaddrinfo's "files" before "dns". A name is asked as written:
// c-ares' queries do not append resolv.conf's search domains, so a short name that only a search
// domain completes (Kubernetes' `receiver` for receiver.ns.svc.cluster.local) must be written in full.
// Either way the caller checks every address before anything connects (destination-url.ts).
import "server-only";
import { readFileSync } from "node:fs";
import { Resolver } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { errorBrand } from "@/lib/error-brand";

/** The whole lookup, waiting for a slot included. */
export const RESOLVE_DEADLINE_MS = 2_000;
/** Lookups in flight at once, per process. */
export const RESOLVE_CONCURRENCY = 8;
/** Lookups waiting for a slot; more fail at once. */
export const RESOLVE_MAX_WAITING = 100;
/** c-ares' own timeout per try, and its tries: a lost datagram is asked again within the deadline. */
const TRY_TIMEOUT_MS = 600;
const TRIES = 2;
/** A waiting lookup with less time left than this is not started (its deadline fails it anyway). */
const MIN_USEFUL_MS = 50;
/** How long the hosts file's content is trusted before it is read again. */
const HOSTS_FILE_TTL_MS = 10_000;

export type NotResolvedReason = "not_found" | "timeout" | "busy" | "failed";

// Recognised by its brand (lib/error-brand.ts), not `instanceof`: the resolver is the process's one,
// on globalThis, made by whichever bundle came first.
const notResolvedBrand = errorBrand<NameNotResolved>("NameNotResolved");

/** Why a name has no addresses; `reason` is what callers branch on. */
export class NameNotResolved extends Error {
  readonly code = "name_not_resolved";
  constructor(
    readonly reason: NotResolvedReason,
    message: string,
  ) {
    super(message);
    this.name = "NameNotResolved";
    notResolvedBrand.mark(this);
  }
}

export const isNameNotResolved = notResolvedBrand.is;

export type NameResolver = {
  /** Every address of `name` (IPv4 first), from localhost's rule, the hosts file or DNS; NameNotResolved otherwise. */
  resolve(name: string): Promise<string[]>;
  /** Lookups in flight and waiting now (tests, the bench). */
  load(): { running: number; waiting: number };
};

export type NameResolverOptions = {
  /** Name servers (`host` or `host:port`); the system's (/etc/resolv.conf) by default. */
  servers?: string[];
  deadlineMs?: number;
  concurrency?: number;
  maxWaiting?: number;
  /** The hosts file; null to read none. */
  hostsFile?: string | null;
};

const LOCALHOST = ["127.0.0.1", "::1"];

/** Whether `name` is localhost or under it (RFC 6761 6.3: always loopback, never asked of DNS). */
const isLocalhost = (name: string) => name === "localhost" || name.endsWith(".localhost");

/** A hosts file's names (lower case) and their addresses, in the file's order. */
export function parseHostsFile(text: string): Map<string, string[]> {
  const hosts = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    const [address, ...names] = raw.replace(/#.*/, "").trim().split(/\s+/);
    // A zone (fe80::1%eth0) is not something a destination may use; such lines are skipped.
    if (!address || names.length === 0 || address.includes("%") || !ipaddr.isValid(address)) continue;
    for (const name of names) {
      const key = name.toLowerCase();
      const list = hosts.get(key) ?? [];
      if (!list.includes(address)) list.push(address);
      hosts.set(key, list);
    }
  }
  return hosts;
}

type Slot = { resolver: Resolver };
type Waiter = { deadlineAt: number; start: (slot: Slot) => void };

const isNoData = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENODATA" || code === "ENOTFOUND";
};

export function createNameResolver(options: NameResolverOptions = {}): NameResolver {
  const deadlineMs = options.deadlineMs ?? RESOLVE_DEADLINE_MS;
  const concurrency = options.concurrency ?? RESOLVE_CONCURRENCY;
  const maxWaiting = options.maxWaiting ?? RESOLVE_MAX_WAITING;
  const hostsFile = options.hostsFile === undefined ? "/etc/hosts" : options.hostsFile;

  // Resolvers are made on first need (each reads the system's configuration once).
  const idle: Slot[] = [];
  let running = 0;
  const waiting: Waiter[] = [];

  function newSlot(): Slot {
    const resolver = new Resolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
    if (options.servers) resolver.setServers(options.servers);
    return { resolver };
  }

  function release(slot: Slot) {
    while (waiting.length > 0 && waiting[0]!.deadlineAt - Date.now() < MIN_USEFUL_MS) waiting.shift();
    const next = waiting.shift();
    if (next) next.start(slot);
    else {
      running--;
      idle.push(slot);
    }
  }

  // Read synchronously, at most every HOSTS_FILE_TTL_MS: a few hundred bytes of a local file, and
  // an asynchronous read would queue on the very thread pool this module keeps out of.
  let hosts: { at: number; entries: Map<string, string[]> } | null = null;
  function hostsEntries(): Map<string, string[]> {
    if (hostsFile === null) return new Map();
    const now = Date.now();
    if (!hosts || now - hosts.at > HOSTS_FILE_TTL_MS) {
      let entries = new Map<string, string[]>();
      try {
        entries = parseHostsFile(readFileSync(hostsFile, "utf8"));
      } catch {
        // No hosts file: names go to DNS only.
      }
      hosts = { at: now, entries };
    }
    return hosts.entries;
  }

  /** A and AAAA of `name` on `slot`'s Resolver; settles when both queries have ended (answered, failed or cancelled). */
  async function query(slot: Slot, name: string, expired: () => boolean): Promise<string[]> {
    const [v4, v6] = await Promise.allSettled([slot.resolver.resolve4(name), slot.resolver.resolve6(name)]);
    const addresses = [...(v4.status === "fulfilled" ? v4.value : []), ...(v6.status === "fulfilled" ? v6.value : [])];
    // One family answered is enough: whatever is returned is checked before anything connects.
    if (addresses.length > 0) return addresses;
    if (expired()) throw new NameNotResolved("timeout", `the name ${name} did not resolve within ${deadlineMs / 1000} s (its name server did not answer).`);
    const errors = [v4, v6].map((r) => (r.status === "rejected" ? (r.reason as unknown) : null));
    if (errors.every((e) => e === null || isNoData(e))) throw new NameNotResolved("not_found", `the name ${name} has no address.`);
    const timedOut = errors.some((e) => (e as { code?: unknown } | null)?.code === "ETIMEOUT");
    // c-ares may run out of tries a little before the deadline: said the same way.
    throw new NameNotResolved(
      timedOut ? "timeout" : "failed",
      timedOut ? `the name ${name} did not resolve within ${deadlineMs / 1000} s (its name server did not answer).` : `the name ${name} could not be resolved.`,
    );
  }

  function viaDns(name: string, deadlineAt: number): Promise<string[]> {
    return new Promise<string[]>((resolve, reject) => {
      let settled = false;
      let slot: Slot | null = null;
      let expired = false;
      const settle = (outcome: { addresses: string[] } | { error: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if ("addresses" in outcome) resolve(outcome.addresses);
        else reject(outcome.error);
      };
      const timer = setTimeout(
        () => {
          expired = true;
          if (slot) {
            // Its queries end now (ECANCELLED), which settles this lookup and frees the slot.
            slot.resolver.cancel();
            return;
          }
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          settle({
            error: new NameNotResolved(
              "timeout",
              `the name ${name} could not be looked up within ${deadlineMs / 1000} s (too many names were being looked up).`,
            ),
          });
        },
        Math.max(0, deadlineAt - Date.now()),
      );
      timer.unref?.();
      const waiter: Waiter = {
        deadlineAt,
        start(given) {
          slot = given;
          query(given, name, () => expired)
            .then(
              (addresses) => settle({ addresses }),
              (error: unknown) => settle({ error }),
            )
            .finally(() => release(given));
        },
      };

      if (running < concurrency) {
        running++;
        waiter.start(idle.pop() ?? newSlot());
      } else if (waiting.length < maxWaiting) {
        waiting.push(waiter);
      } else {
        settle({ error: new NameNotResolved("busy", `the name ${name} could not be looked up now (too many names are being looked up); try again shortly.`) });
      }
    });
  }

  return {
    async resolve(rawName) {
      const deadlineAt = Date.now() + deadlineMs;
      const name = rawName.toLowerCase().replace(/\.$/, "");
      if (isLocalhost(name)) return [...LOCALHOST];
      const fromHosts = hostsEntries().get(name);
      if (fromHosts && fromHosts.length > 0) return [...fromHosts];
      return viaDns(name, deadlineAt);
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}

const g = globalThis as typeof globalThis & { __waDestinationResolver?: NameResolver };

/**
 * The process's resolver for destination names. On globalThis: route handlers and the sender may be
 * bundled apart but run in one process, and the cap is the process's.
 */
export function destinationResolver(): NameResolver {
  return (g.__waDestinationResolver ??= createNameResolver());
}

/** Makes `resolver` the process's (tests: a name server of their own); returns what puts the old one back. */
export function setDestinationResolver(resolver: NameResolver): () => void {
  const previous = g.__waDestinationResolver;
  g.__waDestinationResolver = resolver;
  return () => {
    g.__waDestinationResolver = previous;
  };
}
