// The store as the rest of the server uses it: an opened database (database.ts) with each domain's
// functions bound to it (workspaces, snapshots, kept days, jobs, views, annotations, alerts, activity,
// shares, tokens), and the registry of what it keeps sealed (sealed.ts: resealing after a rotation, and its counts for health).
// Route handlers and jobs reach it through the server context (`serverContext().store()`), never
// through SQL of their own; tests make their own with `openStore` and inject it there.
import "server-only";
import { sql } from "kysely";
import { activityContext, type Activity } from "./activity";
import { alertsContext, type Alerts } from "./alerts";
import { annotationsContext, type Annotations } from "./annotations";
import { openStoreDatabase, type PostgresOptions, type StoreConfig, type StoreDatabase, type StoreKind } from "./database";
import { jobsContext, type Jobs } from "./jobs";
import { keptDaysContext, type KeptDays } from "./kept-days";
import { sealedValuesContext, type SealedValues } from "./sealed";
import type { SealingSecrets } from "./secrets";
import { sharesContext, type Shares } from "./shares";
import { snapshotsContext, type Snapshots } from "./snapshots";
import { tokensContext, type Tokens } from "./tokens";
import { viewsContext, type Views } from "./views";
import { workspacesContext, type Workspaces } from "./workspaces";

export type Store = {
  readonly kind: StoreKind;
  /** The schema version the database is at. */
  readonly schema: number;
  /** Where it is, as it may be logged (the directory, or the URL without its password). */
  readonly location: string;
  readonly workspaces: Workspaces;
  readonly snapshots: Snapshots;
  /** The insights' figures of closed days (kept-days.ts). */
  readonly keptDays: KeptDays;
  readonly jobs: Jobs;
  readonly views: Views;
  readonly annotations: Annotations;
  readonly alerts: Alerts;
  readonly activity: Activity;
  readonly shares: Shares;
  readonly tokens: Tokens;
  /** Every value sealed under the session secret: the start-up sweep after a rotation, and counts. */
  readonly sealed: SealedValues;
  /** One round trip to the database: rejects while it cannot be reached (health). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type StoreOptions = {
  /** The secrets sealing what the store keeps (SESSION_SECRET and SESSION_SECRET_PREVIOUS). */
  secrets: () => SealingSecrets;
  now?: () => number;
  log?: (line: string) => void;
  postgres?: PostgresOptions;
  /** The sealed values' sweep: rows per query, and how long its counts are answered (tests shorten both). */
  sealed?: { batchSize?: number; countsTtlMs?: number };
};

/** Binds the domains to an opened database; reads the store's own fingerprint secret. */
export async function createStore(database: StoreDatabase, options: StoreOptions): Promise<Store> {
  const now = options.now ?? (() => Date.now());
  const { db } = database;
  const meta = await db.selectFrom("store_meta").select("value").where("key", "=", "fingerprint_secret").executeTakeFirst();
  if (!meta) throw new Error("the store has no fingerprint secret (store_meta): its first migration did not complete");
  const sealed = sealedValuesContext({ db, secrets: options.secrets, now, ...options.sealed, ...(options.log ? { log: options.log } : {}) });
  return {
    kind: database.kind,
    schema: database.schema,
    location: database.location,
    workspaces: workspacesContext({ db, postgres: database.kind === "postgres", fingerprintSecret: meta.value, sealed, now }),
    snapshots: snapshotsContext({ db, now }),
    keptDays: keptDaysContext({ db, now }),
    jobs: jobsContext({ db }),
    views: viewsContext({ db, now }),
    annotations: annotationsContext({ db, now }),
    alerts: alertsContext({ db, now, sealed }),
    activity: activityContext({ db, now }),
    shares: sharesContext({ db, now, sealed, fingerprintSecret: meta.value }),
    tokens: tokensContext({ db, now, fingerprintSecret: meta.value }),
    sealed,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => database.close(),
  };
}

/** Opens the database at `config` (migrating it) and makes the store over it. */
export async function openStore(config: StoreConfig, options: StoreOptions): Promise<Store> {
  const database = await openStoreDatabase(config, options.postgres);
  try {
    return await createStore(database, options);
  } catch (error) {
    await database.close();
    throw error;
  }
}
