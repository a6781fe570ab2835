// Saved views' refusals as the production build answers them (`npm start`, testing/system-setup.ts):
// a taken name (also renaming to one, also in another case) is a 409 naming `name`, the 201st view a
// 422 `limit_reached`, a bad field a 400 naming it, an unknown id a 404; none of them writes anything.
// In-process tests saw these while the production server answered 500 for the store's own refusals.
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_SAVED_VIEWS } from "@/lib/store/views";
import type { ApiClient } from "@/testing/production";
import { expectRefusal, inParallel, signedIn, WORKSPACE_KEYS, type Refusal } from "@/testing/system";
import type { SavedViewBody } from "./routes";

let api: ApiClient;
let taken: SavedViewBody;
let other: SavedViewBody;

const save = (body: unknown) => api.call<SavedViewBody>("POST", "/api/views", { body });
const listed = async () => (await api.call<{ data: SavedViewBody[] }>("GET", "/api/views")).body.data;

beforeAll(async () => {
  api = await signedIn(WORKSPACE_KEYS.views);
  const made = await Promise.all([
    save({ name: "Taken", path: "/visitors", query: { source: "chatgpt" } }),
    save({ name: "Other", path: "/mentions", query: {} }),
  ]);
  expect(made.map((a) => a.status)).toEqual([201, 201]);
  [taken, other] = made.map((a) => a.body) as [SavedViewBody, SavedViewBody];
});

const UNKNOWN_ID = "view_AAAAAAAAAAAAAAAAAAAAAA";

describe("saved views: refusals from the production server", () => {
  it.each<[string, () => Parameters<ApiClient["call"]>, Refusal]>([
    [
      "a second view with a taken name",
      () => ["POST", "/api/views", { body: { name: "Taken", path: "/visitors", query: {} } }],
      { status: 409, code: "name_taken", param: "name" },
    ],
    [
      "a taken name in another case, padded",
      () => ["POST", "/api/views", { body: { name: "  tAKEN ", path: "/", query: {} } }],
      { status: 409, code: "name_taken", param: "name" },
    ],
    [
      "renaming a view to a taken name",
      () => ["PATCH", `/api/views/${other.id}`, { body: { name: "taken" } }],
      { status: 409, code: "name_taken", param: "name" },
    ],
    [
      "an empty name",
      () => ["POST", "/api/views", { body: { name: "  ", path: "/visitors", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "name" },
    ],
    [
      "a name of 81 characters",
      () => ["POST", "/api/views", { body: { name: "n".repeat(81), path: "/visitors", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "name" },
    ],
    [
      "a name that is not a string",
      () => ["POST", "/api/views", { body: { name: 7, path: "/visitors", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "name" },
    ],
    [
      "a path that is not a page with a query (Settings)",
      () => ["POST", "/api/views", { body: { name: "S", path: "/settings", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "path" },
    ],
    [
      "a path on another site",
      () => ["POST", "/api/views", { body: { name: "E", path: "https://elsewhere.example/visitors", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "path" },
    ],
    [
      "a query naming another page's parameter",
      () => ["POST", "/api/views", { body: { name: "Q", path: "/visitors", query: { platform: "claude" } } }],
      { status: 400, code: "invalid_parameter", param: "query" },
    ],
    [
      "a query that is not an object",
      () => ["POST", "/api/views", { body: { name: "Q", path: "/visitors", query: "source=chatgpt" } }],
      { status: 400, code: "invalid_parameter", param: "query" },
    ],
    [
      "a query value that is not a string",
      () => ["POST", "/api/views", { body: { name: "Q", path: "/visitors", query: { converted: true } } }],
      { status: 400, code: "invalid_parameter", param: "query" },
    ],
    ["a body that is not JSON", () => ["POST", "/api/views", { rawBody: "{name: Taken" }], { status: 400, code: "invalid_parameter", param: "body" }],
    ["renaming an unknown view", () => ["PATCH", `/api/views/${UNKNOWN_ID}`, { body: { name: "Renamed" } }], { status: 404, code: "not_found" }],
    ["renaming with an id that is no view's", () => ["PATCH", "/api/views/..%2Fsettings", { body: { name: "Renamed" } }], { status: 404, code: "not_found" }],
    ["deleting an unknown view", () => ["DELETE", `/api/views/${UNKNOWN_ID}`, {}], { status: 404, code: "not_found" }],
  ])("%s", async (label, request, expected) => {
    expectRefusal(await api.call(...request()), expected, label);
  });

  it("wrote nothing while refusing", async () => {
    expect((await listed()).map((v) => [v.id, v.name, v.path, v.query])).toEqual([
      [other.id, "Other", "/mentions", {}],
      [taken.id, "Taken", "/visitors", { source: "chatgpt" }],
    ]);
  });

  it(`the ${MAX_SAVED_VIEWS + 1}st view is a 422 limit_reached, and nothing is written; one deleted, one may be saved again`, async () => {
    const made = await inParallel(MAX_SAVED_VIEWS - 2, 8, (i) => save({ name: `View ${i}`, path: "/visitors", query: {} }));
    expect(made.every((a) => a.status === 201)).toBe(true);
    expectRefusal(await save({ name: "One too many", path: "/visitors", query: {} }), { status: 422, code: "limit_reached" });
    const views = await listed();
    expect(views).toHaveLength(MAX_SAVED_VIEWS);
    expect(views.some((v) => v.name === "One too many")).toBe(false);
    // Renaming is not adding: still allowed at the bound.
    expect((await api.call("PATCH", `/api/views/${other.id}`, { body: { name: "Other, renamed" } })).status).toBe(200);
    expect((await api.call("DELETE", `/api/views/${made[0]!.body.id}`)).status).toBe(204);
    expect((await save({ name: "One too many", path: "/visitors", query: {} })).status).toBe(201);
  });
});
