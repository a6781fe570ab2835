// Linking keys' refusals as the production build answers them (`npm start`, testing/system-setup.ts):
// a key that already opens a workspace of its own is a 409 `conflict` naming `apiKey` (the store's own
// refusal, a 500 from the production server before), as is a key of another upstream workspace; a key
// of the wrong form or one the upstream refuses a 400 naming `apiKey`. None of them links anything:
// each key still opens the workspace it opened before.
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, REVOKED_KEY } from "@/sandbox/keys";
import type { ApiClient } from "@/testing/production";
import { expectRefusal, signedIn, WORKSPACE_KEYS, type Refusal } from "@/testing/system";
import type { WorkspaceBody } from "./workspace-routes";

let api: ApiClient;
/** Sessions of the two other keys: each has opened a workspace of its own. */
let sameUpstream: ApiClient;
let otherUpstream: ApiClient;
const before: Record<string, WorkspaceBody> = {};

const workspaceOf = async (client: ApiClient) => {
  const answer = await client.call<WorkspaceBody>("GET", "/api/workspace");
  expect(answer.status).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  [api, sameUpstream, otherUpstream] = await Promise.all([signedIn(WORKSPACE_KEYS.linking), signedIn(WORKSPACE_KEYS.views), signedIn(DEMO_KEYS.empty)]);
  // Reading its workspace is what makes a key open one (its first use of the store).
  before.linking = await workspaceOf(api);
  before.sameUpstream = await workspaceOf(sameUpstream);
  before.otherUpstream = await workspaceOf(otherUpstream);
});

describe("linking a key: refusals from the production server", () => {
  it.each<[string, () => Parameters<ApiClient["call"]>, Refusal]>([
    // Until linking merges the two workspaces (issue 26, finding 2): today the contract refuses it.
    ["a key of the same upstream workspace that already opens a workspace of its own (today's contract, before linking merges)", () => ["POST", "/api/workspace/keys", { body: { apiKey: WORKSPACE_KEYS.views } }], { status: 409, code: "conflict", param: "apiKey" }],
    ["a key of another upstream workspace", () => ["POST", "/api/workspace/keys", { body: { apiKey: DEMO_KEYS.empty } }], { status: 409, code: "conflict", param: "apiKey" }],
    ["a key the upstream refuses (revoked)", () => ["POST", "/api/workspace/keys", { body: { apiKey: REVOKED_KEY } }], { status: 400, code: "invalid_key", param: "apiKey" }],
    ["a key of the wrong form", () => ["POST", "/api/workspace/keys", { body: { apiKey: "sk_live_123" } }], { status: 400, code: "invalid_parameter", param: "apiKey" }],
    ["no key", () => ["POST", "/api/workspace/keys", { body: {} }], { status: 400, code: "invalid_parameter", param: "apiKey" }],
    ["a body that is not JSON", () => ["POST", "/api/workspace/keys", { rawBody: "apiKey=svc_sk_test_x" }], { status: 400, code: "invalid_parameter", param: "body" }],
  ])("%s", async (label, request, expected) => {
    expectRefusal(await api.call(...request()), expected, label);
  });

  it("linked nothing: every key still opens the workspace it opened, with its own keys only", async () => {
    const after = { linking: await workspaceOf(api), sameUpstream: await workspaceOf(sameUpstream), otherUpstream: await workspaceOf(otherUpstream) };
    expect(after).toEqual(before);
    for (const workspace of Object.values(after)) expect(workspace.linked_keys).toHaveLength(1);
  });
});
