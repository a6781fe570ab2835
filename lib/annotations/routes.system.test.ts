// Notes' refusals as the production build answers them (`npm start`, testing/system-setup.ts): a bad
// field a 400 naming it (also when only the stored note shows it wrong: a PATCH of `end_date` before
// the note's `date`), a PATCH naming an `updated_at` that is no longer the note's a 409 `conflict`
// with the note as it is, an unknown id a 404, the 1,001st note a 422 `limit_reached`; none of them
// writes anything. The store's own refusals were 500s from the production server.
import { beforeAll, describe, expect, it } from "vitest";
import { ANNOTATIONS_PER_WORKSPACE, type AnnotationJson } from "@/lib/annotations/limits";
import type { ApiClient } from "@/testing/production";
import { expectRefusal, inParallel, signedIn, WORKSPACE_KEYS, type Refusal } from "@/testing/system";

let api: ApiClient;
/** A note of one day, and one of a span (10 to 12 November). */
let day: AnnotationJson;
let span: AnnotationJson;

const MONTH = "/api/annotations?from=2026-11-01&to=2026-11-30";
const create = (body: unknown) => api.call<AnnotationJson>("POST", "/api/annotations", { body });
const notes = async () => (await api.call<{ data: AnnotationJson[] }>("GET", MONTH)).body.data;

beforeAll(async () => {
  api = await signedIn(WORKSPACE_KEYS.notes);
  const made = await Promise.all([
    create({ date: "2026-11-05", text: "Campaign paused" }),
    create({ date: "2026-11-10", end_date: "2026-11-12", text: "Launch week", author: "Ana" }),
  ]);
  expect(made.map((a) => a.status)).toEqual([201, 201]);
  [day, span] = made.map((a) => a.body) as [AnnotationJson, AnnotationJson];
});

const UNKNOWN_ID = "ann_AAAAAAAAAAAAAAAAAAAAAA";

describe("notes: refusals from the production server", () => {
  it.each<[string, () => Parameters<ApiClient["call"]>, Refusal]>([
    [
      "a PATCH of end_date before the note's date (only the stored note shows it)",
      () => ["PATCH", `/api/annotations/${span.id}`, { body: { updated_at: span.updated_at, end_date: "2026-11-01" } }],
      { status: 400, code: "invalid_parameter", param: "end_date" },
    ],
    [
      "a PATCH of date after the note's end_date",
      () => ["PATCH", `/api/annotations/${span.id}`, { body: { updated_at: span.updated_at, date: "2026-11-20" } }],
      { status: 400, code: "invalid_parameter", param: "date" },
    ],
    [
      "a PATCH naming an updated_at that is no longer the note's",
      () => ["PATCH", `/api/annotations/${day.id}`, { body: { updated_at: "2026-01-01T00:00:00.000Z", text: "Overwritten?" } }],
      { status: 409, code: "conflict", param: "updated_at" },
    ],
    [
      "a PATCH of an unknown note",
      () => ["PATCH", `/api/annotations/${UNKNOWN_ID}`, { body: { updated_at: day.updated_at, text: "x" } }],
      { status: 404, code: "not_found" },
    ],
    [
      "a PATCH without updated_at",
      () => ["PATCH", `/api/annotations/${day.id}`, { body: { text: "x" } }],
      { status: 400, code: "invalid_parameter", param: "updated_at" },
    ],
    [
      "a PATCH changing nothing",
      () => ["PATCH", `/api/annotations/${day.id}`, { body: { updated_at: day.updated_at } }],
      { status: 400, code: "invalid_parameter", param: "body" },
    ],
    ["a DELETE of an unknown note", () => ["DELETE", `/api/annotations/${UNKNOWN_ID}`, {}], { status: 404, code: "not_found" }],
    ["a DELETE with an id that is no note's", () => ["DELETE", "/api/annotations/vis_1", {}], { status: 404, code: "not_found" }],
    [
      "a note whose end_date is before its date",
      () => ["POST", "/api/annotations", { body: { date: "2026-11-10", end_date: "2026-11-09", text: "x" } }],
      { status: 400, code: "invalid_parameter", param: "end_date" },
    ],
    [
      "a note on a day that does not exist",
      () => ["POST", "/api/annotations", { body: { date: "2026-02-30", text: "x" } }],
      { status: 400, code: "invalid_parameter", param: "date" },
    ],
    ["a note without a date", () => ["POST", "/api/annotations", { body: { text: "x" } }], { status: 400, code: "invalid_parameter", param: "date" }],
    [
      "a note of blanks",
      () => ["POST", "/api/annotations", { body: { date: "2026-11-10", text: "   " } }],
      { status: 400, code: "invalid_parameter", param: "text" },
    ],
    [
      "a note of 281 characters",
      () => ["POST", "/api/annotations", { body: { date: "2026-11-10", text: "x".repeat(281) } }],
      { status: 400, code: "invalid_parameter", param: "text" },
    ],
    [
      "an author of 81 characters",
      () => ["POST", "/api/annotations", { body: { date: "2026-11-10", text: "x", author: "a".repeat(81) } }],
      { status: 400, code: "invalid_parameter", param: "author" },
    ],
    ["a body that is not a JSON object", () => ["POST", "/api/annotations", { rawBody: "[1, 2]" }], { status: 400, code: "invalid_parameter", param: "body" }],
    [
      "a list whose from is after its to",
      () => ["GET", "/api/annotations?from=2026-11-30&to=2026-11-01", {}],
      { status: 400, code: "invalid_parameter", param: "from" },
    ],
    [
      "a list in a zone that does not exist",
      () => ["GET", "/api/annotations?from=2026-11-01&to=2026-11-30&tz=Mars%2FOlympus", {}],
      { status: 400, code: "invalid_parameter", param: "tz" },
    ],
  ])("%s", async (label, request, expected) => {
    expectRefusal(await api.call(...request()), expected, label);
  });

  it("a 409 carries the note as it is now, so the page can show the newer text", async () => {
    const answer = await api.call<{ current: AnnotationJson }>("PATCH", `/api/annotations/${day.id}`, {
      body: { updated_at: "2026-01-01T00:00:00.000Z", text: "Overwritten?" },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.current).toEqual(day);
  });

  it("wrote nothing while refusing", async () => {
    expect(await notes()).toEqual([day, span]);
  });

  it(`the ${ANNOTATIONS_PER_WORKSPACE + 1}st note is a 422 limit_reached, and nothing is written; editing still works`, async () => {
    const made = await inParallel(ANNOTATIONS_PER_WORKSPACE - 2, 8, (i) => create({ date: "2026-11-20", text: `Note ${i}` }));
    expect(made.every((a) => a.status === 201)).toBe(true);
    expectRefusal(await create({ date: "2026-11-21", text: "One too many" }), { status: 422, code: "limit_reached" });
    const kept = await notes();
    expect(kept).toHaveLength(ANNOTATIONS_PER_WORKSPACE);
    expect(kept.some((n) => n.text === "One too many")).toBe(false);
    expect((await api.call("PATCH", `/api/annotations/${day.id}`, { body: { updated_at: day.updated_at, text: "Campaign resumed" } })).status).toBe(200);
    // A thousand writes through the production server: about 25 s on a loaded 2-core machine.
  }, 120_000);
});
