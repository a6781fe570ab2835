// The process's store: opened on first use (a request that needs it, /api/health, the scheduler's
// first tick), once per process, and kept on globalThis like the server context (the route handlers,
// the proxy and instrumentation are bundled apart but share the process). Never opened while the app
// is being built: `next build` runs page modules in worker processes, and none of them may take the
// embedded database's lock or run migrations. A failure to open (another process holds DATA_DIR, the
// PostgreSQL server is down) is said once in the log and remembered for a few seconds, so requests
// get a quick StoreUnavailableError rather than each waiting for their own attempt, and the next
// use after that tries again: the app keeps serving everything that needs no store meanwhile.
import "server-only";
import { getEnv } from "@/lib/server/env";
import { StoreUnavailableError } from "./errors";
import { describeColumns } from "./sealed";
import { openStore, type Store } from "./store";

/** How long a failed open is answered from memory before it is tried again. */
const RETRY_AFTER_MS = 5000;

type Handle = {
  /** What it was opened for (DATABASE_URL or DATA_DIR): a change (tests) opens another. */
  config: string;
  opening: Promise<Store>;
  failedAt?: number;
};

const g = globalThis as typeof globalThis & { __waStore?: Handle; __waStoreSaid?: string };

/** Whether this process is `next build` (or a worker of it): Next sets NEXT_PHASE there. */
export function isBuildPhase(): boolean {
  return process.env.NEXT_PHASE === "phase-production-build";
}

function say(line: string, warn: boolean): void {
  if (g.__waStoreSaid === line) return;
  g.__waStoreSaid = line;
  if (warn) console.warn(line);
  else console.info(line);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

async function open(now: () => number): Promise<Store> {
  const env = getEnv();
  // Read at each use, so the store follows the environment it runs in (tests change it).
  const secrets = () => {
    const { sessionSecret, sessionSecretPrevious } = getEnv();
    return { current: sessionSecret, ...(sessionSecretPrevious ? { previous: sessionSecretPrevious } : {}) };
  };
  let store: Store;
  try {
    store = await openStore(env.store, { secrets, now });
  } catch (error) {
    throw new StoreUnavailableError(`the store could not be opened: ${describe(error)}`, { cause: error });
  }
  say(`[store] ${store.kind === "embedded" ? `embedded database in ${store.location}` : `PostgreSQL at ${store.location}`}, schema ${store.schema}`, false);
  // Every value sealed under the session secret, looked at once per start, in the background (a
  // read seals again what it needs itself, so no request waits for this): during a rotation what
  // still needs the previous secret is sealed again (so the previous secret can go once health says
  // none is left), and what no secret opens is said, not touched.
  void store.sealed.sweep().then(
    (report) => {
      if (report.resealed > 0) console.info(`[store] sealed ${report.resealed} value(s) again under SESSION_SECRET (${describeColumns(report, "resealed")})`);
      if (report.unreadable > 0) {
        console.warn(
          `[store] ${report.unreadable} sealed value(s) open with neither SESSION_SECRET nor SESSION_SECRET_PREVIOUS (${describeColumns(report, "unreadable")}): left as they are, and what needs them waits; give this instance the secret they were sealed under as SESSION_SECRET_PREVIOUS`,
        );
      }
    },
    (error: unknown) => console.warn(`[store] could not look through the sealed values (to seal them again under SESSION_SECRET): ${describe(error)}`),
  );
  return store;
}

/**
 * The process's store, opened (and migrated) on first use. Rejects with StoreUnavailableError while
 * it cannot be opened, and always during `next build`.
 */
export function sharedStore(options: { now?: () => number } = {}): Promise<Store> {
  if (isBuildPhase()) return Promise.reject(new StoreUnavailableError("the store is not opened while the app is being built"));
  let config: string;
  try {
    const { store } = getEnv();
    config = store.databaseUrl ?? `dir:${store.dataDir}`;
  } catch (error) {
    return Promise.reject(new StoreUnavailableError(`the store could not be opened: ${describe(error)}`, { cause: error }));
  }
  const current = g.__waStore;
  if (current && current.config === config && (current.failedAt === undefined || Date.now() - current.failedAt < RETRY_AFTER_MS)) return current.opening;
  if (current && current.config !== config && current.failedAt === undefined) void current.opening.then((s) => s.close()).catch(() => {});

  const handle: Handle = { config, opening: open(options.now ?? (() => Date.now())) };
  g.__waStore = handle;
  handle.opening.catch((error: unknown) => {
    handle.failedAt = Date.now();
    say(`[store] unavailable: ${describe(error).replace(/^the store could not be opened: /, "")}`, true);
  });
  return handle.opening;
}

/** Closes the process's store (tests; shutdown). The next use opens it again. */
export async function closeSharedStore(): Promise<void> {
  const current = g.__waStore;
  g.__waStore = undefined;
  g.__waStoreSaid = undefined;
  if (!current) return;
  try {
    await (await current.opening).close();
  } catch {
    // It never opened: nothing to close.
  }
}

export type StoreHealth =
  { kind: Store["kind"]; schema: number; sealed_under_previous: number | null; sealed_unreadable: number | null } | { unavailable: string };

/**
 * What /api/health says about `store`: its kind, schema, and how many sealed values still need
 * SESSION_SECRET_PREVIOUS (0: it can be removed) or open with no configured secret (null until
 * they have been counted, moments after the store opens); or why the store cannot be used now.
 */
export async function storeHealth(store: () => Promise<Store>, timeoutMs = 2000): Promise<StoreHealth> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the store within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const opened = await Promise.race([store(), timeout]);
    await Promise.race([opened.ping(), timeout]);
    const sealed = opened.sealed.counts();
    return { kind: opened.kind, schema: opened.schema, sealed_under_previous: sealed?.underPrevious ?? null, sealed_unreadable: sealed?.unreadable ?? null };
  } catch (error) {
    return { unavailable: describe(error).replace(/^the store could not be opened: /, "") };
  } finally {
    clearTimeout(timer);
  }
}
