// Share links' refusals as the production build answers them (`npm start`, testing/system-setup.ts),
// in a workspace of this file's own: sharing without watching is a 409 `watching_required`; a page
// that may not be shared, another page's parameter, a short password or a past expiry a 400 naming the
// field; an unknown link a 404; and for viewers without a session, one 404 for every link that does
// not open, a read the page does not make a 404, a password's tries 401 then 429, each answer with
// `noindex` and `no-referrer`. None of them writes anything.
import { beforeAll, describe, expect, it } from "vitest";
import { deriveDemoKey } from "@/sandbox/keys";
import { fromAddress, type ApiClient } from "@/testing/production";
import { expectRefusal, production, signedIn, signedOut, type Refusal } from "@/testing/system";
import type { ShareBody } from "./routes";

let api: ApiClient;
let open: ShareBody;
let locked: ShareBody;
const token = (s: ShareBody) => s.url!.split("/s/")[1]!;

const share = (body: unknown) => api.call<ShareBody>("POST", "/api/shares", { body });
const listed = async () => (await api.call<{ data: ShareBody[] }>("GET", "/api/shares")).body.data;

beforeAll(async () => {
  api = await signedIn(deriveDemoKey("pro", "shares"));
  expectRefusal(await share({ name: "Too soon", path: "/", query: {} }), { status: 409, code: "watching_required" });
  expect((await api.call("PUT", "/api/workspace/watch")).status).toBe(200);
  const made = await Promise.all([
    share({ name: "Open", path: "/intelligence", query: {} }),
    share({ name: "Locked", path: "/queries", query: { range: "7d" }, password: "correct horse" }),
  ]);
  expect(made.map((a) => a.status)).toEqual([201, 201]);
  [open, locked] = made.map((a) => a.body) as [ShareBody, ShareBody];
});

const UNKNOWN_ID = "shr_AAAAAAAAAAAAAAAAAAAAAA";

describe("share links: members' refusals from the production server", () => {
  it.each<[string, () => Parameters<ApiClient["call"]>, Refusal]>([
    [
      "a list of visitors",
      () => ["POST", "/api/shares", { body: { name: "V", path: "/visitors", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "path" },
    ],
    [
      "Settings",
      () => ["POST", "/api/shares", { body: { name: "S", path: "/settings", query: {} } }],
      { status: 400, code: "invalid_parameter", param: "path" },
    ],
    [
      "another page's parameter",
      () => ["POST", "/api/shares", { body: { name: "Q", path: "/queries", query: { source: "chatgpt" } } }],
      { status: 400, code: "invalid_parameter", param: "query" },
    ],
    ["an empty name", () => ["POST", "/api/shares", { body: { name: " ", path: "/", query: {} } }], { status: 400, code: "invalid_parameter", param: "name" }],
    [
      "a password of 5 characters",
      () => ["POST", "/api/shares", { body: { name: "P", path: "/", query: {}, password: "12345" } }],
      { status: 400, code: "invalid_parameter", param: "password" },
    ],
    [
      "an expiry in the past",
      () => ["POST", "/api/shares", { body: { name: "E", path: "/", query: {}, expires_at: "2001-01-01T00:00:00Z" } }],
      { status: 400, code: "invalid_parameter", param: "expires_at" },
    ],
    [
      "an expiry that is no date",
      () => ["PATCH", `/api/shares/${open.id}`, { body: { expires_at: "next week" } }],
      { status: 400, code: "invalid_parameter", param: "expires_at" },
    ],
    ["a body that is not JSON", () => ["POST", "/api/shares", { rawBody: "{name:" }], { status: 400, code: "invalid_parameter", param: "body" }],
    ["changing an unknown link", () => ["PATCH", `/api/shares/${UNKNOWN_ID}`, { body: { password: null } }], { status: 404, code: "not_found" }],
    ["changing with an id that is no link's", () => ["PATCH", "/api/shares/..%2Fviews", { body: { password: null } }], { status: 404, code: "not_found" }],
    ["revoking an unknown link", () => ["DELETE", `/api/shares/${UNKNOWN_ID}`, {}], { status: 404, code: "not_found" }],
  ])("%s", async (label, request, expected) => {
    expectRefusal(await api.call(...request()), expected, label);
  });

  it("wrote nothing while refusing", async () => {
    expect((await listed()).map((s) => [s.name, s.path, s.password, s.expires_at]).sort()).toEqual([
      ["Locked", "/queries", true, null],
      ["Open", "/intelligence", false, null],
    ]);
  });
});

describe("share links: viewers, without a session", () => {
  const viewer = () => signedOut();

  it("read what the shared page reads, never indexed, never telling where they came from", async () => {
    const answer = await viewer().call("GET", `/api/shared/${token(open)}/intelligence/score`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it.each([
    ["a read the page does not make", () => `/api/shared/${token(open)}/insights/countries`],
    ["a list of visitors", () => `/api/shared/${token(open)}/visitors`],
    ["a path out of the shared reads", () => `/api/shared/${token(open)}/..%2Fworkspace`],
  ])("%s is a 404", async (_label, path) => {
    expectRefusal(await viewer().call("GET", path()), { status: 404, code: "not_found" });
  });

  it("every link that does not open (unknown, revoked, malformed) is one and the same 404", async () => {
    const gone = await share({ name: "Gone", path: "/locations", query: {} });
    expect((await api.call("DELETE", `/api/shares/${gone.body.id}`)).status).toBe(204);
    const answers = await Promise.all(
      [token(gone.body), "B".repeat(32), "short", "B".repeat(33)].map((t) => viewer().call("GET", `/api/shared/${t}/insights/countries`)),
    );
    for (const a of answers)
      expect({ status: a.status, body: a.body }).toEqual({
        status: 404,
        body: { error: { code: "not_found", message: "This link does not exist or has expired." } },
      });
    expectRefusal(await viewer().call("POST", `/api/shared/${token(gone.body)}/unlock`, { body: { password: "whatever" } }), {
      status: 404,
      code: "not_found",
    });
  });

  it("a password: without it 401, a bad body 400, wrong ones 401 and then 429; the right one opens it", async () => {
    const read = `/api/shared/${token(locked)}/insights/queries`;
    expectRefusal(await viewer().call("GET", read), { status: 401, code: "password_required" });
    expectRefusal(await viewer().call("POST", `/api/shared/${token(locked)}/unlock`, { body: { password: 7 } }), {
      status: 400,
      code: "invalid_parameter",
      param: "password",
    });
    const right = await viewer().call("POST", `/api/shared/${token(locked)}/unlock`, { body: { password: "correct horse" } });
    expect(right.status).toBe(204);
    for (let i = 0; i < 5; i++)
      expectRefusal(await viewer().call("POST", `/api/shared/${token(locked)}/unlock`, { body: { password: `guess ${i}` } }), {
        status: 401,
        code: "wrong_password",
        param: "password",
      });
    expectRefusal(await viewer().call("POST", `/api/shared/${token(locked)}/unlock`, { body: { password: "correct horse" } }), {
      status: 429,
      code: "too_many_attempts",
    });
  });
});

describe("share links: a shared page's loads", () => {
  it("are 60 a minute per client, then a 429 page that says to wait; another client is not held back", async () => {
    const { base } = production();
    const load = (address: string) =>
      fetch(`${base}/s/${"C".repeat(32)}`, {
        headers: { accept: "text/html", "sec-fetch-dest": "document" },
        dispatcher: fromAddress(address).dispatcher,
      } as RequestInit);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await load("127.3.0.9");
      await res.text();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses[60]).toBe(429);
    const other = await load("127.3.0.10");
    await other.text();
    expect(other.status).toBe(404);
    expect(other.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(other.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
