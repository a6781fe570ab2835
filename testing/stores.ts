// The store's tests run every contract against both databases: `describe.each(STORE_KINDS)`, with a
// fresh store per test from `storesForFile()`: the embedded one in a new temporary DATA_DIR, or a new
// database on the file's own PostgreSQL server (testing/postgres.ts, started on the first PostgreSQL
// test and stopped after the file). Everything opened is closed, and every directory removed, after
// each test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach } from "vitest";
import type { StoreConfig, StoreKind } from "@/lib/store/database";
import type { SealingSecrets } from "@/lib/store/secrets";
import { openStore, type Store, type StoreOptions } from "@/lib/store/store";
import { startTestPostgres, type TestPostgres } from "./postgres";

export const STORE_KINDS: StoreKind[] = ["embedded", "postgres"];

export const TEST_SECRETS: SealingSecrets = { current: "store-test-session-secret-0123456789abcdef" };

export type TestStores = {
  /** A new, empty place of `kind` to open stores at (the same config opened twice: two instances). */
  config(kind: StoreKind): Promise<StoreConfig>;
  /** Opens (and migrates) a store at `config`, or at a new place of `kind`; closed after the test. */
  open(kindOrConfig: StoreKind | StoreConfig, options?: Partial<StoreOptions>): Promise<Store>;
  /** The file's PostgreSQL server (started on first use). */
  postgres(): Promise<TestPostgres>;
};

export function storesForFile(): TestStores {
  let server: Promise<TestPostgres> | undefined;
  const opened: Store[] = [];
  const dirs: string[] = [];

  afterEach(async () => {
    await Promise.allSettled(opened.splice(0).map((s) => s.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await (await server?.catch(() => undefined))?.stop();
  });

  const postgres = () => (server ??= startTestPostgres());

  async function config(kind: StoreKind): Promise<StoreConfig> {
    const dataDir = mkdtempSync(path.join(tmpdir(), "wa-store-"));
    dirs.push(dataDir);
    if (kind === "embedded") return { dataDir };
    return { dataDir, databaseUrl: await (await postgres()).createDatabase() };
  }

  return {
    config,
    postgres,
    async open(kindOrConfig, options = {}) {
      const at = typeof kindOrConfig === "string" ? await config(kindOrConfig) : kindOrConfig;
      const store = await openStore(at, { secrets: () => TEST_SECRETS, ...options, postgres: { max: 4, ...options.postgres } });
      opened.push(store);
      return store;
    },
  };
}
