// Workspaces on both databases: a key opens its workspace (made once, also when two instances see a
// new key at once), linked keys open the same one (a key with a workspace of its own brings it
// along: workspace-data.test.ts), and the watching key is kept sealed (never in clear in the
// database's bytes), deleted at once when watching stops, and sealed again under a rotated secret as
// it is read (sealed.test.ts: the rest of the rotation).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { StoreConflictError } from "./errors";
import type { WorkspaceId } from "./schema";
import { STORE_KINDS, storesForFile, TEST_SECRETS } from "@/testing/stores";

const stores = storesForFile();

const KEY_A = "svc_sk_live_workspaceA_first_0123456789abcdef";
const KEY_A2 = "svc_sk_live_workspaceA_second_9876543210fedcba";
const KEY_B = "svc_sk_test_workspaceB_only_00112233445566778899";

describe.each(STORE_KINDS)("workspaces (%s)", (kind) => {
  it("a key opens the same workspace every time; another key opens another", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const a = await store.workspaces.workspaceForKey(KEY_A);
    t += 1000;
    expect(a).toEqual({
      id: expect.stringMatching(/^ws_[A-Za-z0-9_-]{22}$/),
      createdAt: 1_700_000_000_000,
      timeZone: "UTC",
      watching: "off",
      pausedReason: null,
      historySince: null,
    });
    expect(await store.workspaces.workspaceForKey(KEY_A)).toEqual(a);
    const b = await store.workspaces.workspaceForKey(KEY_B);
    expect(b.id).not.toBe(a.id);
    expect(await store.workspaces.linkedKeys(a.id)).toEqual([
      { id: store.workspaces.linkIdOf(KEY_A), keyHint: "svc_sk_live_…cdef", linkedAt: 1_700_000_000_000 },
    ]);
    expect(await store.workspaces.workspace(b.id)).toEqual(b);
    expect(await store.workspaces.workspace("ws_nope" as WorkspaceId)).toBeUndefined();
  });

  it("a linked key opens the same workspace; linking again is idempotent; a key with a workspace of its own brings it along", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const a = await store.workspaces.workspaceForKey(KEY_A);
    const b = await store.workspaces.workspaceForKey(KEY_B);
    t += 60_000;
    const link = { id: store.workspaces.linkIdOf(KEY_A2), keyHint: "svc_sk_live_…dcba", linkedAt: t };
    expect(await store.workspaces.linkKey(a.id, KEY_A2)).toEqual({ ...link, merged: false });
    expect((await store.workspaces.workspaceForKey(KEY_A2)).id).toBe(a.id);
    t += 60_000;
    // Linking the same key again answers the link made before.
    expect(await store.workspaces.linkKey(a.id, KEY_A2)).toEqual({ ...link, merged: false });
    // B's key had opened a workspace of its own: it is now a's (workspace-data.test.ts moves its rows).
    expect(await store.workspaces.linkKey(a.id, KEY_B)).toEqual({
      id: store.workspaces.linkIdOf(KEY_B),
      keyHint: "svc_sk_test_…8899",
      linkedAt: t,
      merged: true,
    });
    expect(await store.workspaces.workspace(b.id)).toBeUndefined();
    expect((await store.workspaces.workspaceForKey(KEY_B)).id).toBe(a.id);
    expect((await store.workspaces.linkedKeys(a.id)).map((k) => k.keyHint)).toEqual(["svc_sk_live_…cdef", "svc_sk_live_…dcba", "svc_sk_test_…8899"]);
    // The workspace merged away cannot link anything any more.
    await expect(store.workspaces.linkKey(b.id, "svc_sk_live_unlinked_key_123456789")).rejects.toBeInstanceOf(StoreConflictError);
    await expect(store.workspaces.linkKey("ws_nope" as WorkspaceId, "svc_sk_live_unlinked_key_123456789")).rejects.toThrow(
      /merged into another one or deleted/,
    );
  });

  it("two instances seeing a new key at once make one workspace", async () => {
    const config = await stores.config(kind);
    const first = await stores.open(config);
    // Embedded: one process only, so the "second instance" is a second caller of the same store.
    const second = kind === "postgres" ? await stores.open(config) : first;
    const opened = await Promise.all([...Array(6)].map((_, i) => (i % 2 ? first : second).workspaces.workspaceForKey(KEY_A)));
    expect(new Set(opened.map((w) => w.id)).size).toBe(1);
    expect(await first.workspaces.linkedKeys(opened[0]!.id)).toHaveLength(1);
  });

  it("fingerprints come from the store's own secret: the same key in another store has another fingerprint, and SESSION_SECRET plays no part", async () => {
    const one = await stores.open(kind);
    const other = await stores.open(kind, { secrets: () => ({ current: "a-completely-different-session-secret-000" }) });
    expect(one.workspaces.fingerprint(KEY_A)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(one.workspaces.fingerprint(KEY_A)).not.toBe(other.workspaces.fingerprint(KEY_A));
    const config = await stores.config(kind);
    const before = await stores.open(config, { secrets: () => TEST_SECRETS });
    const ws = await before.workspaces.workspaceForKey(KEY_A);
    await before.close();
    const after = await stores.open(config, { secrets: () => ({ current: "the-session-secret-after-a-change-0000000" }) });
    expect((await after.workspaces.workspaceForKey(KEY_A)).id).toBe(ws.id);
  });

  it("time zone: a known IANA zone is kept; anything else is bad input naming time_zone", async () => {
    const store = await stores.open(kind);
    const ws = await store.workspaces.workspaceForKey(KEY_A);
    expect((await store.workspaces.setTimeZone(ws.id, "Europe/Berlin")).timeZone).toBe("Europe/Berlin");
    for (const bad of ["Mars/Olympus", "+05:30", "", "Europe/Berlin; drop table workspaces"]) {
      await expect(store.workspaces.setTimeZone(ws.id, bad)).rejects.toMatchObject({ param: "time_zone" });
    }
    expect((await store.workspaces.workspace(ws.id))!.timeZone).toBe("Europe/Berlin");
  });

  it("watching: on keeps the key sealed, paused says why, off deletes it; only the workspace's own keys", async () => {
    const store = await stores.open(kind);
    const a = await store.workspaces.workspaceForKey(KEY_A);
    const b = await store.workspaces.workspaceForKey(KEY_B);
    expect(await store.workspaces.watchingKey(a.id)).toBeUndefined();
    await expect(store.workspaces.setWatching(a.id, KEY_B)).rejects.toBeInstanceOf(StoreConflictError);

    expect((await store.workspaces.setWatching(a.id, KEY_A)).watching).toBe("on");
    expect(await store.workspaces.watchingKey(a.id)).toBe(KEY_A);
    expect(await store.workspaces.watchingKey(b.id)).toBeUndefined();
    expect(await store.workspaces.watchedWorkspaces()).toEqual([a.id]);

    const paused = await store.workspaces.pauseWatching(a.id, "The Data API refused the key (401).");
    expect(paused).toMatchObject({ watching: "paused", pausedReason: "The Data API refused the key (401)." });
    expect(await store.workspaces.watchingKey(a.id)).toBeUndefined();
    expect(await store.workspaces.watchedWorkspaces()).toEqual([]);
    // Pausing a workspace that is not watched leaves it off.
    expect((await store.workspaces.pauseWatching(b.id, "x")).watching).toBe("off");

    // A linked key resumes it.
    await store.workspaces.linkKey(a.id, KEY_A2);
    expect(await store.workspaces.setWatching(a.id, KEY_A2)).toMatchObject({ watching: "on", pausedReason: null });
    expect(await store.workspaces.watchingKey(a.id)).toBe(KEY_A2);

    expect((await store.workspaces.stopWatching(a.id)).watching).toBe("off");
    expect(await store.workspaces.watchingKey(a.id)).toBeUndefined();
  });

  it("the kept key is never in the database in clear, and stopping deletes the sealed copy at once", async () => {
    const config = await stores.config(kind);
    const store = await stores.open(config);
    const a = await store.workspaces.workspaceForKey(KEY_A);
    await store.workspaces.setWatching(a.id, KEY_A);
    const secretPart = KEY_A.replace(/^svc_sk_live_/, "");

    const sealedNow = async (): Promise<string | null> => {
      if (kind === "postgres") {
        const client = new pg.Client({ connectionString: config.databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ row: string }>("select w::text as row from workspaces w");
          const all = rows.map((r) => r.row).join("\n");
          expect(all).not.toContain(secretPart);
          const sealed = await client.query<{ watch_key_sealed: string | null }>("select watch_key_sealed from workspaces where id = $1", [a.id]);
          return sealed.rows[0]!.watch_key_sealed;
        } finally {
          await client.end();
        }
      }
      // Every byte of every file of the embedded store: the database and its write-ahead log.
      const files = readdirSync(config.dataDir).filter((f) => f.startsWith("store.db"));
      expect(files).toContain("store.db");
      for (const f of files) expect(readFileSync(path.join(config.dataDir, f)).includes(Buffer.from(secretPart))).toBe(false);
      return null;
    };
    const sealed = await sealedNow();
    if (kind === "postgres") expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);

    await store.workspaces.stopWatching(a.id);
    if (kind === "postgres") expect(await sealedNow()).toBeNull();
  });

  it("a rotated secret: the previous one still opens the kept key, which is sealed again as it is read; without it, the key is not handed out and watching stays on", async () => {
    const config = await stores.config(kind);
    const OLD = "the-old-session-secret-0123456789abcdefgh";
    const NEW = "the-new-session-secret-0123456789abcdefgh";
    let secrets = { current: OLD } as { current: string; previous?: string };
    const store = await stores.open(config, { secrets: () => secrets });
    const a = await store.workspaces.workspaceForKey(KEY_A);
    const b = await store.workspaces.workspaceForKey(KEY_B);
    await store.workspaces.setWatching(a.id, KEY_A);
    await store.workspaces.setWatching(b.id, KEY_B);

    // Changed without the previous secret: the key cannot be read here, but watching is not paused
    // for it (another instance may still hold the secret); only the upstream refusing the key pauses.
    secrets = { current: NEW };
    await expect(store.workspaces.watchingKey(b.id)).rejects.toMatchObject({ code: "sealed_unreadable" });
    expect(await store.workspaces.workspace(b.id)).toMatchObject({ watching: "on", pausedReason: null });
    // Both still watched (made in the same millisecond, their order is their random ids').
    expect((await store.workspaces.watchedWorkspaces()).sort()).toEqual([a.id, b.id].sort());

    secrets = { current: NEW, previous: OLD };
    expect(await store.workspaces.watchingKey(a.id)).toBe(KEY_A);
    // Sealed again under NEW: it opens with NEW alone now (and b's, never read, does not).
    secrets = { current: NEW };
    expect(await store.workspaces.watchingKey(a.id)).toBe(KEY_A);
    await expect(store.workspaces.watchingKey(b.id)).rejects.toMatchObject({ code: "sealed_unreadable" });
    secrets = { current: OLD };
    expect(await store.workspaces.watchingKey(b.id)).toBe(KEY_B);
  });
});
