// The sealed values' registry on both databases, through a rotation of SESSION_SECRET (A, then B with
// A as the previous secret): every `…_sealed` column of the schema is registered; one sweep seals
// every watched key, destination URL and signing secret again under B, in pages, so B alone opens
// them all and nothing is counted under the previous secret; a value read with the previous secret is
// sealed again as it is read; a stale reseal never overwrites what was written since; a value sealed
// under a secret nobody configured is counted, left as it is, and does not pause watching; two
// instances sweeping at once (and a sweep racing reads and changes) lose and resurrect nothing; the
// counts follow what another instance wrote within their lifetime.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openStoreDatabase, type StoreKind } from "./database";
import type { WorkspaceId } from "./schema";
import { SEALED } from "./sealed";
import { sealSecret, type SealingSecrets } from "./secrets";
import type { Store } from "./store";
import { STORE_KINDS, storesForFile } from "@/testing/stores";

const stores = storesForFile();

const A = "rotation-test-secret-A-0123456789abcdefghij";
const B = "rotation-test-secret-B-0123456789abcdefghij";
const NOBODY = "rotation-test-secret-nobody-has-0123456789";

type Kept = {
  workspaces: { id: WorkspaceId; key: string }[];
  destinations: { id: string; url: string; secret: string | null }[];
  shares: { workspace: WorkspaceId; id: string; token: string }[];
};

/** `n` watched workspaces, each with a signed webhook, a Slack destination (no secret) and a share link. */
async function keep(store: Store, n: number): Promise<Kept> {
  const kept: Kept = { workspaces: [], destinations: [], shares: [] };
  for (let i = 0; i < n; i++) {
    const key = `svc_sk_test_rotation_${i}_${randomBytes(8).toString("hex")}`;
    const ws = await store.workspaces.workspaceForKey(key);
    await store.workspaces.setWatching(ws.id, key);
    kept.workspaces.push({ id: ws.id, key });
    const url = `https://receiver.example/${i}/${randomBytes(6).toString("hex")}`;
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const hook = await store.alerts.createDestination(ws.id, { kind: "webhook", name: `Hook ${i}`, url, urlHint: "https://receiver.example/…", secret });
    kept.destinations.push({ id: hook.id, url, secret });
    const slackUrl = `https://hooks.slack.com/services/T${i}/${randomBytes(6).toString("hex")}`;
    const slack = await store.alerts.createDestination(ws.id, {
      kind: "slack",
      name: `Slack ${i}`,
      url: slackUrl,
      urlHint: "https://hooks.slack.com/…",
      secret: null,
    });
    kept.destinations.push({ id: slack.id, url: slackUrl, secret: null });
    const token = randomBytes(16).toString("base64url");
    const share = await store.shares.create(ws.id, { name: `Link ${i}`, path: "/", query: {}, token, passwordHash: null, expiresAt: null });
    kept.shares.push({ workspace: ws.id, id: share.id, token });
  }
  return kept;
}

/** How many sealed values `kept` holds: a watched key, a URL per destination plus a secret per webhook, and a token per link. */
const valuesOf = (kept: Kept) =>
  kept.workspaces.length + kept.destinations.length + kept.destinations.filter((d) => d.secret !== null).length + kept.shares.length;

/** Every kept value opens (under whatever secrets the store has now) to what was kept. */
async function expectAllOpen(store: Store, kept: Kept): Promise<void> {
  for (const w of kept.workspaces) expect(await store.workspaces.watchingKey(w.id)).toBe(w.key);
  for (const d of kept.destinations) expect(await store.alerts.openDestination(d.id)).toMatchObject({ url: d.url, secret: d.secret });
  for (const s of kept.shares) expect(await store.shares.share(s.workspace, s.id)).toMatchObject({ token: s.token });
}

/** A store whose secrets the test changes as an operator would between starts. */
async function rotatable(
  kind: StoreKind | Awaited<ReturnType<typeof stores.config>>,
  first: SealingSecrets,
  options: { batchSize?: number; countsTtlMs?: number; now?: () => number } = {},
) {
  let secrets = first;
  const { now, ...sealed } = options;
  const store = await stores.open(kind, { secrets: () => secrets, sealed, ...(now ? { now } : {}) });
  return { store, use: (next: SealingSecrets) => void (secrets = next) };
}

describe.each(STORE_KINDS)("sealed values (%s)", (kind) => {
  it("every …_sealed column of the migrated schema is registered, and every registration names one", async () => {
    // The schema as the migrations make it: one that adds a sealed column without registering it fails here.
    const database = await openStoreDatabase(await stores.config(kind));
    const tables = await database.db.introspection.getTables().finally(() => database.close());
    const inSchema = tables.flatMap((t) => t.columns.filter((c) => c.name.endsWith("_sealed")).map((c) => `${t.name}.${c.name}`)).sort();
    const registered = Object.values(SEALED)
      .map((c) => `${c.table}.${c.column}`)
      .sort();
    expect(inSchema).toEqual(registered);
    expect(registered).toEqual(["alert_destinations.secret_sealed", "alert_destinations.url_sealed", "shares.token_sealed", "workspaces.watch_key_sealed"]);
    for (const c of Object.values(SEALED)) expect(tables.find((t) => t.name === c.table)!.columns.map((col) => col.name)).toContain(c.rowKey);
  });

  it("a rotation: one sweep, in pages, seals every watched key, destination URL and secret again under the new secret; the new one alone then opens them all", async () => {
    const { store, use } = await rotatable(kind, { current: A }, { batchSize: 3 });
    const kept = await keep(store, 4);
    const values = valuesOf(kept);
    expect(values).toBe(20);

    use({ current: B, previous: A });
    const report = await store.sealed.sweep();
    expect(report).toMatchObject({ resealed: values, underPrevious: 0, unreadable: 0 });
    expect(report.columns).toEqual({
      watchKey: { values: 4, resealed: 4, underPrevious: 0, unreadable: 0 },
      destinationUrl: { values: 8, resealed: 8, underPrevious: 0, unreadable: 0 },
      destinationSecret: { values: 4, resealed: 4, underPrevious: 0, unreadable: 0 },
      shareToken: { values: 4, resealed: 4, underPrevious: 0, unreadable: 0 },
    });
    expect(store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 0 });
    // Nothing is left for a second sweep.
    expect(await store.sealed.sweep()).toMatchObject({ resealed: 0, underPrevious: 0, unreadable: 0 });

    // SESSION_SECRET_PREVIOUS removed: every value still opens, unchanged; the old secret opens none.
    use({ current: B });
    await expectAllOpen(store, kept);
    use({ current: A });
    expect(await store.sealed.sweep()).toMatchObject({ unreadable: values });
  });

  it("a value opened with the previous secret is sealed again as it is read", async () => {
    const { store, use } = await rotatable(kind, { current: A });
    const kept = await keep(store, 2);
    use({ current: B, previous: A });
    // Read once, no sweep: the watched keys through watching, the destinations as sending opens them.
    await expectAllOpen(store, kept);
    use({ current: B });
    await expectAllOpen(store, kept);
    // The reads left nothing for a sweep.
    use({ current: B, previous: A });
    expect(await store.sealed.sweep()).toMatchObject({ resealed: 0, underPrevious: 0, unreadable: 0 });
  });

  it("a reseal from a stale read never overwrites what was written since (a key replaced, watching stopped)", async () => {
    const { store, use } = await rotatable(kind, { current: A });
    const kept = await keep(store, 2);
    const [replaced, stopped] = kept.workspaces as [Kept["workspaces"][0], Kept["workspaces"][0]];
    // What an instance read under A before the rows changed (the same plaintext, sealed under A).
    const staleReplaced = sealSecret({ current: A }, SEALED.watchKey.aad(replaced.id), replaced.key);
    const staleStopped = sealSecret({ current: A }, SEALED.watchKey.aad(stopped.id), stopped.key);

    use({ current: B, previous: A });
    const newKey = "svc_sk_test_rotation_replacement_0123456789";
    await store.workspaces.linkKey(replaced.id, newKey);
    await store.workspaces.setWatching(replaced.id, newKey);
    await store.workspaces.stopWatching(stopped.id);

    // Opening the stale texts answers what they hold, and writes nothing back over the rows.
    expect(await store.sealed.open(SEALED.watchKey, replaced.id, staleReplaced)).toBe(replaced.key);
    expect(await store.sealed.open(SEALED.watchKey, stopped.id, staleStopped)).toBe(stopped.key);
    use({ current: B });
    expect(await store.workspaces.watchingKey(replaced.id)).toBe(newKey);
    expect(await store.workspaces.workspace(stopped.id)).toMatchObject({ watching: "off" });
    expect((await store.sealed.sweep()).columns.watchKey.values).toBe(1);
  });

  it("a value no configured secret opens is counted, left as it is, and does not pause watching", async () => {
    const { store, use } = await rotatable(kind, { current: NOBODY });
    const lost = await keep(store, 1);
    use({ current: A });
    const kept = await keep(store, 2);

    use({ current: B, previous: A });
    const report = await store.sealed.sweep();
    expect(report).toMatchObject({ resealed: valuesOf(kept), underPrevious: 0, unreadable: valuesOf(lost) });
    expect(report.columns.watchKey).toEqual({ values: 3, resealed: 2, underPrevious: 0, unreadable: 1 });
    expect(store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 5 });

    const ws = lost.workspaces[0]!;
    await expect(store.workspaces.watchingKey(ws.id)).rejects.toMatchObject({
      code: "sealed_unreadable",
      message: expect.stringMatching(/neither its SESSION_SECRET nor its SESSION_SECRET_PREVIOUS/),
    });
    await expect(store.alerts.openDestination(lost.destinations[0]!.id)).rejects.toMatchObject({ code: "sealed_unreadable" });
    expect(await store.workspaces.workspace(ws.id)).toMatchObject({ watching: "on", pausedReason: null });
    expect(await store.workspaces.watchedWorkspaces()).toContain(ws.id);
    expect((await store.alerts.destination(ws.id, lost.destinations[0]!.id))!.status).toBe("active");
    // A link whose token no secret opens still opens by its hash; only showing it again waits.
    expect(await store.shares.byToken(lost.shares[0]!.token)).toMatchObject({ id: lost.shares[0]!.id, token: null });
    expect(store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 5 });

    // Left as it was: the instance that has its secret opens every one of them, unchanged.
    use({ current: NOBODY });
    await expectAllOpen(store, lost);
  });

  it("two instances sweeping at once seal each value once, and every value opens under the new secret", async () => {
    const config = await stores.config(kind);
    const before = await rotatable(config, { current: A });
    const kept = await keep(before.store, 6);
    before.use({ current: B, previous: A });
    // Embedded: one process only, so the second instance is a second caller of the same store.
    const second = kind === "postgres" ? (await rotatable(config, { current: B, previous: A }, { batchSize: 4 })).store : before.store;

    const [one, two] = await Promise.all([before.store.sealed.sweep(), second.sealed.sweep()]);
    if (kind === "postgres") expect(one.resealed + two.resealed).toBe(valuesOf(kept));
    else expect(one).toBe(two);
    for (const report of [one, two]) expect(report).toMatchObject({ underPrevious: 0, unreadable: 0 });
    before.use({ current: B });
    await expectAllOpen(before.store, kept);
  });

  it("a sweep racing reads, key changes and stops loses nothing and brings nothing back", async () => {
    const config = await stores.config(kind);
    const first = await rotatable(config, { current: A }, { batchSize: 2 });
    const kept = await keep(first.store, 8);
    first.use({ current: B, previous: A });
    const second = kind === "postgres" ? (await rotatable(config, { current: B, previous: A }, { batchSize: 3 })).store : first.store;

    const stopped = kept.workspaces.filter((_, i) => i % 4 === 1).map((w) => w.id);
    const replaced = kept.workspaces.filter((_, i) => i % 4 === 2);
    const expected = new Map(kept.workspaces.map((w) => [w.id, w.key as string | undefined]));
    for (const id of stopped) expected.set(id, undefined);
    await Promise.all([
      first.store.sealed.sweep(),
      second.sealed.sweep(),
      ...kept.workspaces.map((w, i) => (i % 2 ? first.store : second).workspaces.watchingKey(w.id).catch(() => undefined)),
      ...kept.destinations.map((d, i) => (i % 2 ? second : first.store).alerts.openDestination(d.id)),
      ...stopped.map((id) => second.workspaces.stopWatching(id)),
      ...replaced.map(async (w) => {
        const key = `${w.key}_replaced`;
        await first.store.workspaces.linkKey(w.id, key);
        await first.store.workspaces.setWatching(w.id, key);
        expected.set(w.id, key);
      }),
    ]);

    first.use({ current: B });
    for (const [id, key] of expected) expect(await first.store.workspaces.watchingKey(id)).toBe(key);
    for (const d of kept.destinations) expect(await first.store.alerts.openDestination(d.id)).toMatchObject({ url: d.url, secret: d.secret });
    const after = await first.store.sealed.sweep();
    expect(after).toMatchObject({ resealed: 0, underPrevious: 0, unreadable: 0 });
    // A stopped workspace's key stays deleted: no reseal wrote it back.
    expect(after.columns.watchKey.values).toBe(kept.workspaces.length - stopped.length);
  });

  it("the counts: none before the first sweep (which asking starts), then what it found, and again what another instance wrote once they are older than their lifetime", async () => {
    let t = 1_700_000_000_000;
    const config = await stores.config(kind);
    const { store, use } = await rotatable(config, { current: B, previous: A }, { countsTtlMs: 60_000, now: () => t });
    await keep(store, 1);
    expect(store.sealed.counts()).toBeUndefined();
    await expect.poll(() => store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 0 });

    // An instance of another rollout writes under a secret this one lacks.
    use({ current: NOBODY });
    await keep(store, 1);
    use({ current: B, previous: A });
    t += 59_000;
    expect(store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 0 });
    t += 1_000;
    // Stale now: answered as it was while a sweep runs behind it, whose counts the next answers have.
    expect(store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 0 });
    await expect.poll(() => store.sealed.counts()).toEqual({ underPrevious: 0, unreadable: 5 });
  });
});
