// The store's connection: PostgreSQL when DATABASE_URL is set (one pool per process, the database
// shared by every instance), else SQLite embedded in DATA_DIR (better-sqlite3, WAL, one process at a
// time: data-dir-lock.ts). Both are reached through Kysely, so every query is written once; the
// schema is brought up to date on open (migrations.ts).
import { mkdirSync } from "node:fs";
import path from "node:path";
import Sqlite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect } from "kysely";
import pg from "pg";
import { acquireDataDirLock, lockHolder, StoreLockedError } from "./data-dir-lock";
import { migrate } from "./migrations";
import type { StoreTables } from "./schema";

export type StoreKind = "embedded" | "postgres";

/** Where the store lives: DATABASE_URL, else the embedded database in `dataDir`. */
export type StoreConfig = { databaseUrl?: string; dataDir: string };

export type StoreDatabase = {
  readonly kind: StoreKind;
  readonly db: Kysely<StoreTables>;
  /** The schema version the database is at (migrations.ts). */
  readonly schema: number;
  /** Where it is, as it may be logged: the directory, or the URL without its password. */
  readonly location: string;
  close(): Promise<void>;
};

/** The embedded database's file in DATA_DIR. */
export const EMBEDDED_FILE = "store.db";

/** PostgreSQL's `int8` (bigint): the instants in epoch ms, which fit a JS number exactly. */
const INT8_OID = 20;

/** The URL as it may be logged: any password replaced. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}

// SQLite runs DDL inside transactions as well as PostgreSQL does, but Kysely's SQLite adapter says it
// does not, so its Migrator would leave a failed migration half applied; this one says so.
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
class StoreSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalSqliteAdapter();
  }
}

function isBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "SQLITE_BUSY";
}

async function openEmbedded(dataDir: string): Promise<StoreDatabase> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(dataDir);
  let sqlite: Sqlite.Database | undefined;
  try {
    // timeout 0: another process's lock is an answer now, not a 5 s wait.
    sqlite = new Sqlite(path.join(dataDir, EMBEDDED_FILE), { timeout: 0 });
    // EXCLUSIVE before WAL: SQLite then keeps its WAL index in this process's memory (no -shm file)
    // and holds the file locked for as long as this connection lives; the kernel drops the lock if
    // the process dies, so no stale lock can outlive it.
    sqlite.pragma("locking_mode = EXCLUSIVE");
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.exec("BEGIN IMMEDIATE; COMMIT;");
  } catch (error) {
    sqlite?.close();
    lock.release();
    if (isBusy(error)) throw new StoreLockedError(dataDir, lockHolder(dataDir));
    throw error;
  }
  lock.confirm();
  const releaseAtExit = () => lock.release();
  process.once("exit", releaseAtExit);
  const db = new Kysely<StoreTables>({ dialect: new StoreSqliteDialect({ database: sqlite }) });
  const close = async () => {
    process.off("exit", releaseAtExit);
    await db.destroy();
    lock.release();
  };
  try {
    const schema = await migrate(db as unknown as Kysely<unknown>);
    return { kind: "embedded", db, schema, location: dataDir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export type PostgresOptions = {
  /** Connections in this process's pool (default 10). */
  max?: number;
  log?: (line: string) => void;
};

/** A pool of connections to `url` whose bigints read as numbers (on this pool only). */
export function postgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const log = options.log ?? ((line: string) => console.warn(line));
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
    },
  });
  // An idle connection that breaks (the server restarted) is an "error" on the pool: without a
  // listener it would end the process. The pool replaces it on the next query.
  pool.on("error", (error) => log(`[store] a PostgreSQL connection failed (${redactDatabaseUrl(url)}): ${error.message}`));
  return pool;
}

async function openPostgres(url: string, options: PostgresOptions): Promise<StoreDatabase> {
  const pool = postgresPool(url, options);
  const db = new Kysely<StoreTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    const schema = await migrate(db as unknown as Kysely<unknown>);
    return { kind: "postgres", db, schema, location: redactDatabaseUrl(url), close: () => db.destroy() };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** Opens the store's database and migrates it. Throws what went wrong (StoreLockedError, a connection or migration error). */
export async function openStoreDatabase(config: StoreConfig, options: PostgresOptions = {}): Promise<StoreDatabase> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, options) : openEmbedded(config.dataDir);
}
