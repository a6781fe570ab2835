// Access tokens on both databases: kept by their HMAC only (the token is nowhere in the row), found by
// the token while it opens (not expired, not revoked), listed newest first with their hint, the 20
// bound held also by creates racing for the last places, uses recorded at most once a minute, and no
// function reaching another workspace's tokens.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { StoreLimitError } from "./errors";
import type { WorkspaceId } from "./schema";
import type { Store } from "./store";
import { createStore } from "./store";
import { openStoreDatabase } from "./database";
import { MAX_TOKENS, USE_RECORD_MS } from "./tokens";
import { STORE_KINDS, storesForFile, TEST_SECRETS } from "@/testing/stores";

const stores = storesForFile();

const KEY_A = "svc_sk_live_tokens_A_0123456789abcdef";
const KEY_B = "svc_sk_live_tokens_B_0123456789abcdef";

async function twoWorkspaces(store: Store): Promise<[WorkspaceId, WorkspaceId]> {
  return [(await store.workspaces.workspaceForKey(KEY_A)).id, (await store.workspaces.workspaceForKey(KEY_B)).id];
}

const secretOf = (n: number) => `wa_${String(n).padStart(43, "x")}`;
const made = (n: number, expiresAt: number | null = null) => ({ name: `token ${n}`, token: secretOf(n), hint: `wa_…${String(n).padStart(4, "0")}`, expiresAt });

describe.each(STORE_KINDS)("tokens (%s)", (kind) => {
  it("keeps a token by its HMAC only, finds it by the token, lists newest first, and revokes it at once", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a, b] = await twoWorkspaces(store);
    const first = await store.tokens.create(a, made(1));
    t += 1000;
    const second = await store.tokens.create(a, made(2, t + 60_000));
    await store.tokens.create(b, made(3));
    expect(first).toEqual({
      id: expect.stringMatching(/^tok_[A-Za-z0-9_-]{16}$/),
      workspace: a,
      name: "token 1",
      hint: "wa_…0001",
      expiresAt: null,
      lastUsedAt: null,
      createdAt: 1_700_000_000_000,
    });
    expect((await store.tokens.list(a)).map((x) => x.id)).toEqual([second.id, first.id]);

    expect(await store.tokens.byToken(secretOf(1))).toEqual(first);
    expect(await store.tokens.byToken(secretOf(9))).toBeUndefined();

    // Another workspace's id revokes nothing.
    expect(await store.tokens.remove(b, first.id)).toBeUndefined();
    expect(await store.tokens.remove(a, first.id)).toEqual(first);
    expect(await store.tokens.byToken(secretOf(1))).toBeUndefined();
    expect(await store.tokens.remove(a, first.id)).toBeUndefined();
    expect((await store.tokens.list(b)).map((x) => x.name)).toEqual(["token 3"]);
  });

  it("the token itself is in no column: only its HMAC and its hint", async () => {
    const database = await openStoreDatabase(await stores.config(kind));
    const store = await createStore(database, { secrets: () => TEST_SECRETS });
    try {
      const [a] = await twoWorkspaces(store);
      await store.tokens.create(a, made(7));
      const { rows } = await sql<Record<string, unknown>>`select * from tokens`.execute(database.db);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(secretOf(7).slice(3, 40));
      expect(rows[0]!.token_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await store.close();
    }
  });

  it("an expired token opens nothing, from the millisecond it expires", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a] = await twoWorkspaces(store);
    const token = await store.tokens.create(a, made(1, t + 5000));
    t += 4999;
    expect((await store.tokens.byToken(secretOf(1)))?.id).toBe(token.id);
    t += 1;
    expect(await store.tokens.byToken(secretOf(1))).toBeUndefined();
    // Still listed (Settings says it expired) until revoked.
    expect((await store.tokens.list(a)).map((x) => x.id)).toEqual([token.id]);
  });

  it("records a use at most once a minute", async () => {
    let t = 1_700_000_000_000;
    const store = await stores.open(kind, { now: () => t });
    const [a] = await twoWorkspaces(store);
    const token = await store.tokens.create(a, made(1));
    await store.tokens.used(token.id);
    expect((await store.tokens.byToken(secretOf(1)))?.lastUsedAt).toBe(t);
    const firstUse = t;
    t += USE_RECORD_MS - 1;
    await store.tokens.used(token.id);
    expect((await store.tokens.byToken(secretOf(1)))?.lastUsedAt).toBe(firstUse);
    t += 1;
    await store.tokens.used(token.id);
    expect((await store.tokens.byToken(secretOf(1)))?.lastUsedAt).toBe(t);
  });

  it(`holds ${MAX_TOKENS} per workspace, also when creates race for the last places`, async () => {
    const store = await stores.open(kind);
    const [a, b] = await twoWorkspaces(store);
    for (let n = 0; n < MAX_TOKENS - 2; n++) await store.tokens.create(a, made(n));
    const racing = await Promise.allSettled([100, 101, 102, 103, 104].map((n) => store.tokens.create(a, made(n))));
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    for (const r of racing.filter((r) => r.status === "rejected")) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(StoreLimitError);
    expect(await store.tokens.list(a)).toHaveLength(MAX_TOKENS);
    // Another workspace's bound is its own.
    await expect(store.tokens.create(b, made(200))).resolves.toMatchObject({ name: "token 200" });
  });

  it("goes with the workspace when it is deleted", async () => {
    const store = await stores.open(kind);
    const [a] = await twoWorkspaces(store);
    await store.tokens.create(a, made(1));
    await store.workspaces.deleteWorkspace(a);
    expect(await store.tokens.byToken(secretOf(1))).toBeUndefined();
  });
});
