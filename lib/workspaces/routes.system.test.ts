// Linking, unlinking and deleting as the production build answers them (`npm start`,
// testing/system-setup.ts): a key of another upstream workspace is a 409 `conflict` naming `apiKey`
// (the store's own refusal was a 500 from the production server), a key of the wrong form or one the
// upstream refuses a 400 naming `apiKey`, and none of them links anything. A key of the same upstream
// workspace that had opened a workspace of its own merges it: its notes and views are the linking
// workspace's, and both keys open it; unlinked again, its sessions end; and everything kept deleted
// ends the session too. Each part works in workspaces of derived keys of its own (sandbox/keys.ts),
// so nothing here touches another file's workspace.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, deriveDemoKey, REVOKED_KEY } from "@/sandbox/keys";
import type { ApiClient } from "@/testing/production";
import { expectRefusal, signedIn, WORKSPACE_KEYS, type Refusal } from "@/testing/system";
import type { LinkBody, WorkspaceBody } from "./routes";

let api: ApiClient;
/** A session of a key of another upstream workspace, which has opened a workspace of its own. */
let otherUpstream: ApiClient;
const before: Record<string, WorkspaceBody> = {};

const workspaceOf = async (client: ApiClient) => {
  const answer = await client.call<WorkspaceBody>("GET", "/api/workspace");
  expect(answer.status).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  [api, otherUpstream] = await Promise.all([signedIn(WORKSPACE_KEYS.linking), signedIn(DEMO_KEYS.empty)]);
  // Reading its workspace is what makes a key open one (its first use of the store).
  before.linking = await workspaceOf(api);
  before.otherUpstream = await workspaceOf(otherUpstream);
});

describe("linking a key: refusals from the production server", () => {
  it.each<[string, () => Parameters<ApiClient["call"]>, Refusal]>([
    [
      "a key of another upstream workspace",
      () => ["POST", "/api/workspace/keys", { body: { apiKey: DEMO_KEYS.empty } }],
      { status: 409, code: "conflict", param: "apiKey" },
    ],
    [
      "a key the upstream refuses (revoked)",
      () => ["POST", "/api/workspace/keys", { body: { apiKey: REVOKED_KEY } }],
      { status: 400, code: "invalid_key", param: "apiKey" },
    ],
    [
      "a key of the wrong form",
      () => ["POST", "/api/workspace/keys", { body: { apiKey: "sk_live_123" } }],
      { status: 400, code: "invalid_parameter", param: "apiKey" },
    ],
    ["no key", () => ["POST", "/api/workspace/keys", { body: {} }], { status: 400, code: "invalid_parameter", param: "apiKey" }],
    [
      "a body that is not JSON",
      () => ["POST", "/api/workspace/keys", { rawBody: "apiKey=svc_sk_test_x" }],
      { status: 400, code: "invalid_parameter", param: "body" },
    ],
    ["unlinking the session's own key", () => ["DELETE", `/api/workspace/keys/${before.linking!.linked_keys[0]!.id}`], { status: 409, code: "conflict" }],
    ["unlinking a key that is not linked here", () => ["DELETE", "/api/workspace/keys/lk_nosuchlink"], { status: 404, code: "not_found" }],
    [
      "deleting everything without the word",
      () => ["DELETE", "/api/workspace", { body: { confirm: "yes" } }],
      { status: 400, code: "invalid_parameter", param: "confirm" },
    ],
  ])("%s", async (label, request, expected) => {
    expectRefusal(await api.call(...request()), expected, label);
  });

  it("linked nothing: every key still opens the workspace it opened, with its own keys only", async () => {
    const after = { linking: await workspaceOf(api), otherUpstream: await workspaceOf(otherUpstream) };
    expect(after).toEqual(before);
    for (const workspace of Object.values(after)) expect(workspace.linked_keys).toHaveLength(1);
  });
});

describe("merging, unlinking and deleting in the production server", () => {
  it("a key used first merges its workspace in: both keys see its note and view; unlinked, its sessions end", async () => {
    const [rotated, old] = [deriveDemoKey("pro", "mergeNew"), deriveDemoKey("pro", "mergeOld")];
    const [fresh, earlier] = await Promise.all([signedIn(rotated), signedIn(old)]);
    // The old key's own workspace, with a note and a view of its own.
    expect((await earlier.call("POST", "/api/annotations", { body: { date: "2026-11-02", text: "Kept from the old key" } })).status).toBe(201);
    expect((await earlier.call("POST", "/api/views", { body: { name: "Old key's view", path: "/visitors", query: { source: "claude" } } })).status).toBe(201);
    await workspaceOf(fresh);

    const linked = await fresh.call<LinkBody>("POST", "/api/workspace/keys", { body: { apiKey: old } });
    expect(linked.status).toBe(201);
    expect(linked.body.merged).toBe(true);
    for (const client of [fresh, earlier]) {
      const notes = await client.call<{ data: { text: string }[] }>("GET", "/api/annotations?from=2026-11-01&to=2026-11-30&tz=UTC");
      expect(notes.body.data.map((n) => n.text)).toContain("Kept from the old key");
      const views = await client.call<{ data: { name: string }[] }>("GET", "/api/views");
      expect(views.body.data.map((v) => v.name)).toContain("Old key's view");
      expect((await workspaceOf(client)).linked_keys).toHaveLength(2);
    }

    const unlinked = await fresh.call("DELETE", `/api/workspace/keys/${linked.body.id}`);
    expect(unlinked.status).toBe(204);
    expectRefusal(await earlier.call("GET", "/api/workspace"), { status: 401, code: "unauthorized" }, "the unlinked key's session");
    expect((await workspaceOf(fresh)).linked_keys).toHaveLength(1);
  });

  it("deleting everything kept ends the session, and signing in again finds nothing kept", async () => {
    const key = deriveDemoKey("pro", "deleteAll");
    const client = await signedIn(key);
    expect((await client.call("POST", "/api/views", { body: { name: "Goes with the rest", path: "/mentions", query: {} } })).status).toBe(201);
    const deleted = await client.call("DELETE", "/api/workspace", { body: { confirm: "delete" } });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get("set-cookie") ?? "").toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expectRefusal(await client.call("GET", "/api/views"), { status: 401, code: "unauthorized" }, "the deleted workspace's session");
    const again = await signedIn(key);
    expect((await again.call<{ data: unknown[] }>("GET", "/api/views")).body.data).toEqual([]);
    expect((await workspaceOf(again)).kept).toMatchObject({ notes: 0, views: 0, snapshots: expect.any(Number) });
  });
});
