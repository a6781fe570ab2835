// The process's store and /api/health: opened once on first use in DATA_DIR, never during
// `next build`; a directory held by another process is a clear "unavailable" on /api/health (200,
// degraded) and one line in the log, not a crash, and the store opens once that process is gone; a
// store injected into the server context is the one health reports; a rotation's previous secret
// reseals every sealed value when the store opens, and health counts what still needs it (none) and
// what no secret opens.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SCHEMA_VERSION } from "@/lib/store/migrations";
import { setServerContext } from "@/lib/server/context";
import { startBackgroundJobs } from "@/lib/server/background";
import { StoreUnavailableError } from "./errors";
import { closeSharedStore, sharedStore } from "./shared";
import { openStore } from "./store";
import { startStoreHolder, type StoreHolder } from "@/testing/store-holder";
import { storesForFile } from "@/testing/stores";
import { routeFileAt } from "@/testing/api-routes";

const { GET: health } = await routeFileAt("health");

const stores = storesForFile();
const SECRET = "shared-store-test-session-secret-0123456789";
let dataDir: string;
const holders: StoreHolder[] = [];

beforeEach(() => {
  dataDir = path.join(mkdtempSync(path.join(tmpdir(), "wa-shared-store-")), "data");
  Object.assign(process.env, { DATA_API_BASE_URL: "http://127.0.0.1:9/v1", SESSION_SECRET: SECRET, DATA_DIR: dataDir });
  delete process.env.DATABASE_URL;
  delete process.env.SESSION_SECRET_PREVIOUS;
  delete process.env.REDIS_URL;
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  delete process.env.NEXT_PHASE;
  await closeSharedStore();
  await Promise.allSettled(holders.splice(0).map((h) => h.kill("SIGKILL")));
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const healthBody = async () => {
  const res = await health(new Request("http://localhost:3000/api/health"), undefined);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};

describe("the process's store", () => {
  it("is opened once, in DATA_DIR, and /api/health names its kind and schema", async () => {
    const first = sharedStore();
    expect(sharedStore()).toBe(first);
    const store = await first;
    expect(store).toMatchObject({ kind: "embedded", schema: SCHEMA_VERSION, location: dataDir });
    expect(existsSync(path.join(dataDir, "store.db"))).toBe(true);
    // The sealed values are counted in the background of the start: the same sweep, awaited here.
    await store.sealed.sweep();
    expect(await healthBody()).toEqual({
      ok: true,
      instance: expect.stringMatching(/^[0-9a-f]{8}$/),
      redis: "off",
      store: { kind: "embedded", schema: SCHEMA_VERSION, sealed_under_previous: 0, sealed_unreadable: 0 },
    });
  });

  it("is never opened while the app is being built, and no job scheduler starts there", async () => {
    process.env.NEXT_PHASE = "phase-production-build";
    await expect(sharedStore()).rejects.toThrow(new StoreUnavailableError("the store is not opened while the app is being built"));
    expect(startBackgroundJobs()).toBeUndefined();
    expect(await healthBody()).toMatchObject({ store: "unavailable", store_error: "the store is not opened while the app is being built", degraded: true });
    expect(existsSync(dataDir)).toBe(false);
  });

  it("a DATA_DIR held by another process: health says who holds it (200, degraded), the log says it once, and the store opens once that process is gone", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    vi.spyOn(console, "info").mockImplementation(() => {});
    const other = await startStoreHolder(dataDir);
    holders.push(other);
    expect(other.line).toMatch(/^open /);

    const reason = `the embedded store in ${dataDir} is in use by process ${other.pid}`;
    await expect(sharedStore()).rejects.toThrow(reason);
    const body = await healthBody();
    expect(body).toMatchObject({ ok: true, store: "unavailable", degraded: true });
    expect(body.store_error).toMatch(new RegExp(`^${reason} \\(running since .*\\): stop that process, or give this one another DATA_DIR`));
    await expect(sharedStore()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(warnings.filter((w) => w.startsWith("[store] unavailable: "))).toHaveLength(1);
    expect(warnings[0]).toContain(reason);

    await other.kill("SIGTERM");
    // Within a few seconds of the failure the answer is the remembered one; after that it tries again.
    await expect(sharedStore()).rejects.toBeInstanceOf(StoreUnavailableError);
    vi.setSystemTime(Date.now() + 6000);
    expect((await sharedStore()).schema).toBe(SCHEMA_VERSION);
    expect(await healthBody()).toMatchObject({ store: { kind: "embedded", schema: SCHEMA_VERSION } });
    expect(await healthBody()).not.toHaveProperty("degraded");
  });

  it("health reports the store injected into the server context, and a store it cannot reach as unavailable", async () => {
    const injected = await stores.open("postgres");
    const restore = setServerContext({ store: async () => injected });
    try {
      expect(await healthBody()).toMatchObject({ store: { kind: "postgres", schema: SCHEMA_VERSION } });
      await injected.close();
      expect(await healthBody()).toMatchObject({ store: "unavailable", store_error: expect.any(String), degraded: true });
    } finally {
      restore();
    }
  });

  it("during a rotation, opening the store seals every value again under the new secret; health then counts none under the previous one, and what no secret opens", async () => {
    const OLD = "the-old-session-secret-0123456789abcdefgh";
    const LOST = "a-secret-no-instance-is-given-0123456789";
    const KEY = "svc_sk_live_rotation_0123456789ab";
    const infos: string[] = [];
    const warnings: string[] = [];
    vi.spyOn(console, "info").mockImplementation((line: string) => void infos.push(line));
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    const before = await openStore({ dataDir }, { secrets: () => ({ current: OLD }) });
    const ws = await before.workspaces.workspaceForKey(KEY);
    await before.workspaces.setWatching(ws.id, KEY);
    const hook = await before.alerts.createDestination(ws.id, {
      kind: "webhook",
      name: "Hook",
      url: "https://receiver.example/hook",
      urlHint: "https://receiver.example/…",
      secret: "whsec_rotation",
    });
    await before.close();
    const elsewhere = await openStore({ dataDir }, { secrets: () => ({ current: LOST }) });
    await elsewhere.alerts.createDestination(ws.id, {
      kind: "slack",
      name: "Lost",
      url: "https://hooks.slack.com/services/lost",
      urlHint: "https://hooks.slack.com/…",
      secret: null,
    });
    await elsewhere.close();

    process.env.SESSION_SECRET_PREVIOUS = OLD;
    // Health answers at once; the start's sweep runs behind it, and health has its counts after it.
    expect(await healthBody()).toMatchObject({ store: { kind: "embedded", schema: SCHEMA_VERSION } });
    await (await sharedStore()).sealed.sweep();
    expect(await healthBody()).toMatchObject({ store: { kind: "embedded", schema: SCHEMA_VERSION, sealed_under_previous: 0, sealed_unreadable: 1 } });
    expect(infos).toContain("[store] sealed 3 value(s) again under SESSION_SECRET (1 watched keys, 1 destination URLs, 1 destination signing secrets)");
    expect(warnings.filter((w) => w.includes("open with neither SESSION_SECRET nor SESSION_SECRET_PREVIOUS"))).toEqual([
      expect.stringMatching(/^\[store\] 1 sealed value\(s\) .*\(1 destination URLs\): left as they are/),
    ]);
    await closeSharedStore();

    // SESSION_SECRET_PREVIOUS removed, as health allows: everything opens under the new secret alone.
    delete process.env.SESSION_SECRET_PREVIOUS;
    const after = await sharedStore();
    await after.sealed.sweep();
    expect(await after.workspaces.watchingKey(ws.id)).toBe(KEY);
    expect(await after.alerts.openDestination(hook.id)).toMatchObject({ url: "https://receiver.example/hook", secret: "whsec_rotation" });
    expect(await healthBody()).toMatchObject({ store: { sealed_under_previous: 0, sealed_unreadable: 1 } });
  });
});
