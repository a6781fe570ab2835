// Share links on both databases: the token never at rest in clear (an HMAC finds it, a seal shows it
// again), a link found by its token only while it opens (revoked and expired alike answer nothing),
// changes of password and expiry, opening counts, the bound held by creates racing for the last
// places, and no function reaching another workspace's links.
import { sql, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { STORE_KINDS, storesForFile, TEST_SECRETS } from "@/testing/stores";
import { openStoreDatabase, type StoreKind } from "./database";
import { StoreLimitError } from "./errors";
import type { StoreTables, WorkspaceId } from "./schema";
import { MAX_SHARES, type NewShare } from "./shares";
import { createStore, type Store } from "./store";

const stores = storesForFile();

const KEY_A = "svc_sk_live_shares_A_0123456789abcdef";
const KEY_B = "svc_sk_live_shares_B_0123456789abcdef";
const TOKEN = "s3cr3t-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

const link = (over: Partial<NewShare> = {}): NewShare => ({
  name: "AI traffic",
  path: "/platforms",
  query: { range: "30d" },
  token: TOKEN,
  passwordHash: null,
  expiresAt: null,
  ...over,
});

async function twoWorkspaces(store: Store): Promise<[WorkspaceId, WorkspaceId]> {
  return [(await store.workspaces.workspaceForKey(KEY_A)).id, (await store.workspaces.workspaceForKey(KEY_B)).id];
}

describe.each(STORE_KINDS)("share links (%s)", (kind) => {
  it("keeps a link without its token in clear, finds it by its token, and shows the token to its workspace", async () => {
    const t = 1_800_000_000_000;
    const { store, db } = await openWithDb(kind, () => t);
    const [a] = await twoWorkspaces(store);
    const made = await store.shares.create(a, link());
    expect(made).toEqual({
      id: expect.stringMatching(/^shr_[A-Za-z0-9_-]{22}$/),
      workspace: a,
      name: "AI traffic",
      path: "/platforms",
      query: { range: "30d" },
      token: TOKEN,
      passwordHash: null,
      expiresAt: null,
      openedCount: 0,
      lastOpenedAt: null,
      createdAt: t,
    });
    // Nothing in the table holds the token: not as a column, not inside another.
    const { rows } = await sql<Record<string, unknown>>`select * from shares`.execute(db);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(await store.shares.byToken(TOKEN)).toEqual(made);
    expect(await store.shares.byToken(`${TOKEN}x`)).toBeUndefined();
    expect(await store.shares.list(a)).toEqual([made]);
  });

  it("an expired or revoked link is found by nobody, at once", async () => {
    let t = 1_800_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a] = await twoWorkspaces(store);
    const expiring = await store.shares.create(a, link({ token: "expiring-token", expiresAt: t + 1000 }));
    const revoked = await store.shares.create(a, link({ token: "revoked-token" }));
    expect(await store.shares.byToken("expiring-token")).toMatchObject({ id: expiring.id });
    t += 1000;
    expect(await store.shares.byToken("expiring-token")).toBeUndefined();
    expect(await store.shares.remove(a, revoked.id)).toBe(true);
    expect(await store.shares.byToken("revoked-token")).toBeUndefined();
    expect(await store.shares.remove(a, revoked.id)).toBe(false);
    // Members still see the expired one, to change its expiry.
    expect((await store.shares.list(a)).map((s) => s.id)).toEqual([expiring.id]);
    const renewed = await store.shares.update(a, expiring.id, { expiresAt: null });
    expect(renewed).toMatchObject({ expiresAt: null });
    expect(await store.shares.byToken("expiring-token")).toMatchObject({ id: expiring.id });
  });

  it("changes the password (null removes it, undefined keeps it) and counts openings", async () => {
    let t = 1_800_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a] = await twoWorkspaces(store);
    const made = await store.shares.create(a, link({ passwordHash: "scrypt$old" }));
    expect(await store.shares.update(a, made.id, { expiresAt: t + 5000 })).toMatchObject({ passwordHash: "scrypt$old", expiresAt: t + 5000 });
    expect(await store.shares.update(a, made.id, { passwordHash: "scrypt$new" })).toMatchObject({ passwordHash: "scrypt$new", expiresAt: t + 5000 });
    expect(await store.shares.update(a, made.id, { passwordHash: null })).toMatchObject({ passwordHash: null });
    t += 10;
    await Promise.all([store.shares.opened(made.id), store.shares.opened(made.id), store.shares.opened(made.id)]);
    expect(await store.shares.share(a, made.id)).toMatchObject({ openedCount: 3, lastOpenedAt: t });
  });

  it("reaches no other workspace's links", async () => {
    const store = await stores.open(kind);
    const [a, b] = await twoWorkspaces(store);
    const ofB = await store.shares.create(b, link());
    expect(await store.shares.list(a)).toEqual([]);
    expect(await store.shares.share(a, ofB.id)).toBeUndefined();
    expect(await store.shares.update(a, ofB.id, { name: "taken over" })).toBeUndefined();
    expect(await store.shares.remove(a, ofB.id)).toBe(false);
    expect(await store.shares.share(b, ofB.id)).toMatchObject({ name: "AI traffic" });
  });

  it(`holds the bound of ${MAX_SHARES} links per workspace when creates race for the last places`, async () => {
    const store = await stores.open(kind);
    const [a, b] = await twoWorkspaces(store);
    for (let i = 0; i < MAX_SHARES - 3; i++) await store.shares.create(a, link({ token: `fill-${i}` }));
    const racing = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.shares.create(a, link({ token: `race-${i}` }))));
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const refused of racing.filter((r) => r.status === "rejected")) expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(StoreLimitError);
    expect(await store.shares.list(a)).toHaveLength(MAX_SHARES);
    // Another workspace's bound is its own.
    await expect(store.shares.create(b, link({ token: "of-b" }))).resolves.toMatchObject({ workspace: b });
  });

  it("goes with its workspace when everything kept is deleted", async () => {
    const store = await stores.open(kind);
    const [a] = await twoWorkspaces(store);
    await store.shares.create(a, link());
    // Settings' confirmation names them among what goes.
    expect(await store.workspaces.keptSummary(a)).toMatchObject({ shares: 1 });
    await store.workspaces.deleteWorkspace(a);
    expect(await store.shares.byToken(TOKEN)).toBeUndefined();
  });
});

/** A store with its database at hand, to read the rows as they are at rest; closed after the file's test. */
const openedHere: Store[] = [];
afterEach(async () => {
  await Promise.allSettled(openedHere.splice(0).map((s) => s.close()));
});
async function openWithDb(kind: StoreKind, now: () => number): Promise<{ store: Store; db: Kysely<StoreTables> }> {
  const database = await openStoreDatabase(await stores.config(kind), { max: 6 });
  const store = await createStore(database, { secrets: () => TEST_SECRETS, now });
  openedHere.push(store);
  return { store, db: database.db };
}
