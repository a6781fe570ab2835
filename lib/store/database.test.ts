// Opening the store: the embedded database (its directory made, WAL, one process at a time through
// the lock file and SQLite's own lock, a dead holder's lock taken over, a live one named), migrations
// on both databases (run once, also by instances starting together on one PostgreSQL; a database of
// a newer version refused), and PostgreSQL's bigints read as numbers on the store's pool only.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { LOCK_FILE, StoreLockedError } from "./data-dir-lock";
import { EMBEDDED_FILE, openStoreDatabase, redactDatabaseUrl, type StoreDatabase } from "./database";
import { SCHEMA_VERSION } from "./migrations";
import { startStoreHolder, type StoreHolder } from "@/testing/store-holder";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();
const opened: StoreDatabase[] = [];
const holders: StoreHolder[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((d) => d.close()));
  await Promise.allSettled(holders.splice(0).map((h) => h.kill("SIGKILL")));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "wa-store-db-"));
  dirs.push(dir);
  return dir;
}

async function open(config: { dataDir: string; databaseUrl?: string }): Promise<StoreDatabase> {
  const database = await openStoreDatabase(config, { max: 4 });
  opened.push(database);
  return database;
}

async function holder(dir: string): Promise<StoreHolder> {
  const h = await startStoreHolder(dir);
  holders.push(h);
  return h;
}

const lockOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8")) as { pid: number; started: string; startTick?: string };

describe("the embedded database", () => {
  it("makes its directory, runs in WAL mode with foreign keys on, and names this process in its lock until closed", async () => {
    const dir = path.join(tempDir(), "nested", "data");
    const database = await open({ dataDir: dir });
    expect(database).toMatchObject({ kind: "embedded", schema: SCHEMA_VERSION, location: dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(dir, EMBEDDED_FILE))).toBe(true);
    const pragma = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(database.db)).rows[0]!)[0];
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("locking_mode")).toBe("exclusive");
    expect(await pragma("foreign_keys")).toBe(1);
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, started: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    opened.pop();
    await database.close();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it("a live process holding the directory is named in a clear error; once it is gone (even killed), its stale lock is taken over", async () => {
    const dir = tempDir();
    const other = await holder(dir);
    expect(other.line).toBe(`open ${other.pid} ${SCHEMA_VERSION}`);
    const refused = await openStoreDatabase({ dataDir: dir }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^the embedded store in ${dir} is in use by process ${other.pid} \\(running since \\d{4}-.*\\): stop that process, or give this one another DATA_DIR`,
      ),
    );
    // The refused attempt left the holder's lock as it was.
    expect(lockOf(dir).pid).toBe(other.pid);

    await other.kill("SIGKILL");
    expect(lockOf(dir).pid).toBe(other.pid); // a crash leaves the lock file behind
    const database = await open({ dataDir: dir });
    expect(database.schema).toBe(SCHEMA_VERSION);
    expect(lockOf(dir).pid).toBe(process.pid);
  });

  it("two processes starting on one directory at once: exactly one opens it, the other is told who has it", async () => {
    const dir = tempDir();
    const [one, two] = await Promise.all([holder(dir), holder(dir)]);
    const lines = [one.line, two.line].sort();
    expect(lines[0]).toMatch(/^error the embedded store in .* is in use by (process \d+|another process)/);
    expect(lines[1]).toMatch(/^open \d+ /);
    const winner = one.line.startsWith("open") ? one : two;
    expect(lockOf(dir).pid).toBe(winner.pid);
  });

  it("a second open in the same process is refused and leaves the first one's lock alone", async () => {
    const dir = tempDir();
    await open({ dataDir: dir });
    await expect(openStoreDatabase({ dataDir: dir })).rejects.toThrow(`the embedded store in ${dir} is in use by process ${process.pid}`);
    expect(lockOf(dir).pid).toBe(process.pid);
    // Another process is still told who holds it.
    expect((await holder(dir)).line).toContain(`error the embedded store in ${dir} is in use by process ${process.pid}`);
  });

  it("a lock of a pid now used by another program, or an unreadable lock, is stale", async () => {
    const dir = tempDir();
    // process.ppid is alive, but it did not write this lock: its start tick differs.
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, started: "2020-01-01T00:00:00.000Z", startTick: "1" }));
    await (await open({ dataDir: dir })).close();
    opened.pop();
    writeFileSync(path.join(dir, LOCK_FILE), "{not json");
    const database = await open({ dataDir: dir });
    expect(lockOf(dir).pid).toBe(process.pid);
    expect(database.schema).toBe(SCHEMA_VERSION);
  });

  it("SQLite's own lock holds even when the lock file is gone: a second process still cannot open the database", async () => {
    const dir = tempDir();
    const other = await holder(dir);
    unlinkSync(path.join(dir, LOCK_FILE));
    await expect(openStoreDatabase({ dataDir: dir })).rejects.toThrow(/is in use by another process/);
    expect(other.line).toMatch(/^open /);
  });
});

/** Every migration, by name: the schema version is the last one's number. */
const MIGRATIONS = [
  "0001_workspaces_jobs_snapshots",
  "0002_annotations_saved_views",
  "0003_alerts",
  "0004_activity",
  "0005_alert_sending",
  "0006_alert_rule_edits_digest_sends",
  "0007_kept_days",
  "0008_shares",
  "0009_tokens",
  "0010_email_destinations",
];

describe.each(STORE_KINDS)("migrations (%s)", (kind) => {
  it("make every table at the current schema version once; opening again runs nothing and keeps the fingerprint secret", async () => {
    const config = await stores.config(kind);
    const first = await open(config);
    expect(first.schema).toBe(SCHEMA_VERSION);
    const secret = async (db: StoreDatabase) =>
      (await db.db.selectFrom("store_meta").select("value").where("key", "=", "fingerprint_secret").executeTakeFirstOrThrow()).value;
    const before = await secret(first);
    expect(before).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const table of [
      "workspaces",
      "workspace_keys",
      "jobs",
      "score_snapshots",
      "ranking_snapshots",
      "daily_figures",
      "annotations",
      "saved_views",
      "alert_destinations",
      "alert_rules",
      "alert_checks",
      "alert_events",
      "alert_deliveries",
      "alert_attempts",
      "alert_digests",
      "activity",
      "alert_manual_sends",
      "kept_days",
      "kept_zones",
    ] as const) {
      expect(
        await first.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow(),
      ).toEqual({ n: expect.anything() });
    }
    await first.close();
    opened.pop();
    const again = await open(config);
    expect(again.schema).toBe(SCHEMA_VERSION);
    expect(await secret(again)).toBe(before);
    const ran = await sql<{ name: string }>`select name from store_migrations order by name`.execute(again.db);
    expect(ran.rows.map((r) => r.name)).toEqual(MIGRATIONS);
  });

  it("a database migrated by a newer version of the dashboard is refused, saying so", async () => {
    const config = await stores.config(kind);
    const database = await open(config);
    const future = SCHEMA_VERSION + 1;
    await sql`insert into store_migrations (name, timestamp) values (${`${String(future).padStart(4, "0")}_from_the_future`}, '2027-01-01T00:00:00.000Z')`.execute(
      database.db,
    );
    await sql`update store_meta set value = ${String(future)} where key = 'schema_version'`.execute(database.db);
    await database.close();
    opened.pop();
    await expect(openStoreDatabase(config)).rejects.toThrow(
      new RegExp(`schema ${future}, made by a newer version of the dashboard \\(this one knows up to schema ${SCHEMA_VERSION}\\)`),
    );
  });
});

describe("PostgreSQL", () => {
  it("instances starting together on one new database migrate it once", async () => {
    const config = await stores.config("postgres");
    const databases = await Promise.all([...Array(4)].map(() => open(config)));
    expect(databases.map((d) => d.schema)).toEqual(Array(4).fill(SCHEMA_VERSION));
    const meta = await sql<{ key: string }>`select key from store_meta order by key`.execute(databases[0]!.db);
    expect(meta.rows.map((r) => r.key)).toEqual(["fingerprint_secret", "schema_version"]);
    const ran = await sql<{ name: string }>`select name from store_migrations`.execute(databases[3]!.db);
    expect(ran.rows).toHaveLength(MIGRATIONS.length);
  });

  it("reads bigints as numbers on the store's pool, and leaves pg's global parsers alone", async () => {
    const config = await stores.config("postgres");
    const database = await open(config);
    const big = await sql<{ n: unknown }>`select cast(9007199254740991 as bigint) as n`.execute(database.db);
    expect(big.rows[0]!.n).toBe(Number.MAX_SAFE_INTEGER);
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      expect((await client.query<{ n: unknown }>("select cast(42 as bigint) as n")).rows[0]!.n).toBe("42");
    } finally {
      await client.end();
    }
  });

  it("an unreachable server is an error naming the URL without its password", async () => {
    const server = await stores.postgres();
    const url = `postgres://someone:hunter2-secret@127.0.0.1:${server.port + 1}/nowhere`;
    expect(redactDatabaseUrl(url)).toBe(`postgres://someone:***@127.0.0.1:${server.port + 1}/nowhere`);
    const error = await openStoreDatabase({ dataDir: tempDir(), databaseUrl: url }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).not.toContain("hunter2");
  });
});
