// A real PostgreSQL server for the store's tests and bench: a fresh cluster in a temporary directory
// (a copy of one initdb made once per machine), the server started on a free loopback port with its
// socket in that directory and durability off (fsync, synchronous commit: a throwaway cluster),
// stopped and removed by the test. PostgreSQL refuses to run as root, so as root both run as the
// `postgres` user that Debian's package creates. One server per test file; `createDatabase()` gives
// each test a fresh database (CREATE DATABASE). Installs Debian's postgresql first when missing
// (scripts/ensure-postgres.sh), as the Redis tests do.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "./ports";

let binDir: string | undefined;

function postgresBinDir(): string {
  binDir ??= execFileSync("bash", [fileURLToPath(new URL("../scripts/ensure-postgres.sh", import.meta.url))], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return binDir;
}

/** As root: the `postgres` user's ids (PostgreSQL will not run as root). Otherwise: this user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

export type TestPostgres = {
  port: number;
  /** The maintenance database's URL (`postgres`). */
  url: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (immediate shutdown) and removes its directory. */
  stop(): Promise<void>;
};

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited (code ${child.exitCode}) before accepting connections`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/**
 * A freshly initialised cluster to copy, made once per machine and PostgreSQL version: initdb costs
 * seconds (10 s on a loaded 2-core machine), a copy a fraction of that. Made under a temporary name
 * and renamed into place, so a test never copies a half-made one.
 */
function initdbTemplate(bin: string, user: { uid: number; gid: number } | undefined): string {
  const name = `wa-pg-initdb-${bin.replace(/[^A-Za-z0-9]+/g, "_")}-${process.getuid?.() ?? "u"}`;
  const template = path.join(tmpdir(), name);
  if (existsSync(path.join(template, "PG_VERSION"))) return template;
  const making = mkdtempSync(path.join(tmpdir(), `${name}.making-`));
  if (user) chownSync(making, user.uid, user.gid);
  chmodSync(making, 0o700);
  execFileSync(path.join(bin, "initdb"), ["-D", making, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"], {
    ...(user ?? {}),
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    renameSync(making, template);
  } catch {
    // Another worker made it first: use theirs.
    rmSync(making, { recursive: true, force: true });
  }
  return template;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const user = runAs();
  const root = mkdtempSync(path.join(tmpdir(), "wa-pg-"));
  const data = path.join(root, "data");
  if (user) {
    chownSync(root, user.uid, user.gid);
  }
  chmodSync(root, 0o700);
  const ids = user ?? {};
  // `cp -a` keeps the owner (the postgres user) and the 0700 mode PostgreSQL insists on.
  execFileSync("cp", ["-a", initdbTemplate(bin, user), data]);
  const port = await freePort();
  const child = spawn(
    path.join(bin, "postgres"),
    [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      root,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "shared_buffers=16MB",
      "-c",
      "max_connections=60",
      "-c",
      "log_min_messages=fatal",
    ],
    { ...ids, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      // SIGQUIT: PostgreSQL's immediate shutdown. Nothing here is worth a checkpoint: the directory goes next.
      child.kill("SIGQUIT");
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }

  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let made = 0;
  return {
    port,
    url,
    async createDatabase() {
      const name = `store_test_${++made}`;
      await admin.query(`create database ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await admin.end().catch(() => {});
      await stop();
    },
  };
}
