// The annotation routes on both databases, through their route files' handlers with sessions
// checked against the sandbox over real HTTP: create, list, update, delete and their answers; each
// bad field a 400 naming it with nothing stored; writes from another site refused with 403, changing
// nothing; another workspace's note a 404 and never listed; a stale `updated_at` a 409 carrying the
// note as it is now; the 1,000 bound; markup kept as text.
import { describe, expect, it } from "vitest";
import { ANNOTATIONS_PER_WORKSPACE, type AnnotationJson } from "@/lib/annotations/limits";
import { apiRoute, call, ORIGIN, serverStoresForFile, sessionCookie, upstreamForFile, type ErrorJson } from "@/testing/in-process";
import { STORE_KINDS } from "@/testing/stores";
import { DEMO_KEYS } from "@/sandbox/keys";

upstreamForFile();
const storeFor = serverStoresForFile();

type Conflict = ErrorJson & { current: AnnotationJson };

const segments = (path: string) =>
  path
    .replace(/^\/api\//, "")
    .split("?")[0]!
    .split("/");

async function send<T>(method: "POST" | "PATCH" | "DELETE", path: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) {
  const init: RequestInit = {
    method,
    headers: { origin: ORIGIN, "content-type": "application/json", ...options.headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  };
  return call<T>(apiRoute, path, { cookie: await sessionCookie(options.key ?? DEMO_KEYS.pro), init, params: { path: segments(path) } });
}

async function list(query = "from=2026-11-01&to=2026-11-30", key: string = DEMO_KEYS.pro) {
  const path = `/api/annotations?${query}`;
  return call<{ data: AnnotationJson[] } & Partial<ErrorJson>>(apiRoute, path, { cookie: await sessionCookie(key), params: { path: segments(path) } });
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(STORE_KINDS)("annotation routes (%s)", (kind) => {
  it("creates, lists, updates and deletes a note; the answers' shape", async () => {
    await storeFor(kind);
    const created = await send<AnnotationJson>("POST", "/api/annotations", {
      date: "2026-11-03",
      text: "  Campaign paused  ",
      author: "Ana",
      unknown_field: 1,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^ann_/),
      date: "2026-11-03",
      end_date: null,
      text: "Campaign paused",
      author: "Ana",
      created_at: expect.stringMatching(ISO),
      updated_at: created.body.created_at,
    });
    const span = await send<AnnotationJson>("POST", "/api/annotations", { date: "2026-10-30", end_date: "2026-11-02", text: "Launch week" });
    expect(span.body).toMatchObject({ end_date: "2026-11-02", author: null });

    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [span.body, created.body] });
    expect((await list("from=2026-11-04&to=2026-11-30")).body.data).toEqual([]);

    const patched = await send<AnnotationJson>("PATCH", `/api/annotations/${created.body.id}`, {
      updated_at: created.body.updated_at,
      text: "Campaign paused (all markets)",
      author: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, text: "Campaign paused (all markets)", author: null, created_at: created.body.created_at });
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThan(Date.parse(created.body.updated_at));

    const deleted = await send("DELETE", `/api/annotations/${created.body.id}`, undefined);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await list()).body.data.map((n) => n.id)).toEqual([span.body.id]);
    expect((await send<ErrorJson>("DELETE", `/api/annotations/${created.body.id}`, undefined)).status).toBe(404);
  });

  it("401 without a session, on every method", async () => {
    await storeFor(kind);
    const anonymous = [
      await call<ErrorJson>(apiRoute, "/api/annotations", { params: { path: ["annotations"] } }),
      await call<ErrorJson>(apiRoute, "/api/annotations", {
        init: { method: "POST", headers: { origin: ORIGIN }, body: '{"date":"2026-11-03","text":"x"}' },
        params: { path: ["annotations"] },
      }),
      await call<ErrorJson>(apiRoute, "/api/annotations/ann_x", {
        init: { method: "PATCH", headers: { origin: ORIGIN }, body: "{}" },
        params: { path: ["annotations", "ann_x"] },
      }),
      await call<ErrorJson>(apiRoute, "/api/annotations/ann_x", {
        init: { method: "DELETE", headers: { origin: ORIGIN } },
        params: { path: ["annotations", "ann_x"] },
      }),
    ];
    for (const res of anonymous) expect(res.body.error.code).toBe("unauthorized");
  });

  it.each<[string, string | object, string]>([
    ["not JSON", "{date:", "body"],
    ["an array", "[]", "body"],
    ["null", "null", "body"],
    ["no date", { text: "x" }, "date"],
    ["a date that is no calendar day", { date: "2026-02-30", text: "x" }, "date"],
    ["a date of another form", { date: "3 Nov 2026", text: "x" }, "date"],
    ["a date as a number", { date: 20261103, text: "x" }, "date"],
    ["end_date not a day", { date: "2026-11-03", end_date: "2026-11-31", text: "x" }, "end_date"],
    ["end_date before date", { date: "2026-11-03", end_date: "2026-11-02", text: "x" }, "end_date"],
    ["no text", { date: "2026-11-03" }, "text"],
    ["text empty after trimming", { date: "2026-11-03", text: " \n\t " }, "text"],
    ["text of 281 characters", { date: "2026-11-03", text: "ü".repeat(281) }, "text"],
    ["text a number", { date: "2026-11-03", text: 42 }, "text"],
    ["author of 81 characters", { date: "2026-11-03", text: "x", author: "a".repeat(81) }, "author"],
    ["author an object", { date: "2026-11-03", text: "x", author: { name: "Ana" } }, "author"],
  ])("POST with %s: 400 naming %s, nothing stored", async (_label, body, param) => {
    const store = await storeFor(kind);
    const res = await send<ErrorJson>("POST", "/api/annotations", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param, message: expect.any(String) });
    expect(await store.annotations.count((await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id)).toBe(0);
  });

  it("text of 280 characters counted as code points is taken; a body over 4 KB is a 413", async () => {
    await storeFor(kind);
    expect((await send("POST", "/api/annotations", { date: "2026-11-03", text: "🚀".repeat(280) })).status).toBe(201);
    const big = await send<ErrorJson>("POST", "/api/annotations", { date: "2026-11-03", text: "x", padding: "p".repeat(5000) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe("payload_too_large");
    expect((await list()).body.data).toHaveLength(1);
  });

  it.each<[string, (v: string) => object, string]>([
    ["no updated_at", () => ({ text: "y" }), "updated_at"],
    ["updated_at not an instant", () => ({ updated_at: "yesterday", text: "y" }), "updated_at"],
    ["nothing to change", (v) => ({ updated_at: v }), "body"],
    ["text empty", (v) => ({ updated_at: v, text: "  " }), "text"],
    ["a date not a day", (v) => ({ updated_at: v, date: "2026-13-01" }), "date"],
    ["end_date before date", (v) => ({ updated_at: v, date: "2026-11-05", end_date: "2026-11-04" }), "end_date"],
    ["end_date before the stored date", (v) => ({ updated_at: v, end_date: "2026-11-01" }), "end_date"],
    ["author too long", (v) => ({ updated_at: v, author: "a".repeat(81) }), "author"],
  ])("PATCH with %s: 400 naming %s, nothing changed", async (_label, body, param) => {
    await storeFor(kind);
    const note = (await send<AnnotationJson>("POST", "/api/annotations", { date: "2026-11-03", text: "x" })).body;
    const res = await send<ErrorJson>("PATCH", `/api/annotations/${note.id}`, body(note.updated_at));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_parameter", param });
    expect((await list()).body.data).toEqual([note]);
  });

  it("a stale updated_at is a 409 conflict carrying the note as it is now; nothing of the stale write is kept", async () => {
    await storeFor(kind);
    const note = (await send<AnnotationJson>("POST", "/api/annotations", { date: "2026-11-03", text: "first", author: "Ana" })).body;
    const theirs = await send<AnnotationJson>("PATCH", `/api/annotations/${note.id}`, { updated_at: note.updated_at, text: "their newer text", author: "Ben" });
    expect(theirs.status).toBe(200);
    const mine = await send<Conflict>("PATCH", `/api/annotations/${note.id}`, { updated_at: note.updated_at, text: "my text" });
    expect(mine.status).toBe(409);
    expect(mine.body.error).toMatchObject({ code: "conflict", message: expect.any(String) });
    expect(mine.body.current).toEqual(theirs.body);
    // Re-applying on the current version goes through.
    const again = await send<AnnotationJson>("PATCH", `/api/annotations/${note.id}`, { updated_at: mine.body.current.updated_at, text: "my text" });
    expect(again).toMatchObject({ status: 200, body: { text: "my text", author: "Ben" } });
  });

  it("another workspace's note: 404 on PATCH and DELETE, never listed; unknown and malformed ids are 404", async () => {
    await storeFor(kind);
    const note = (await send<AnnotationJson>("POST", "/api/annotations", { date: "2026-11-03", text: "ours" })).body;
    const other = { key: DEMO_KEYS.empty };
    expect((await list(undefined, DEMO_KEYS.empty)).body.data).toEqual([]);
    const patch = await send<ErrorJson>("PATCH", `/api/annotations/${note.id}`, { updated_at: note.updated_at, text: "theirs" }, other);
    const del = await send<ErrorJson>("DELETE", `/api/annotations/${note.id}`, undefined, other);
    expect([patch.status, del.status]).toEqual([404, 404]);
    expect(patch.body.error.code).toBe("not_found");
    expect(patch.text).not.toContain("ours");
    expect((await list()).body.data).toEqual([note]);
    for (const id of ["ann_nope", "' OR 1=1 --", "x".repeat(200)]) {
      expect((await send("DELETE", `/api/annotations/${encodeURIComponent(id)}`, undefined)).status, id).toBe(404);
    }
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }, "csrf_rejected"],
    ["a null Origin", { origin: "null" }, "csrf_rejected"],
    ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }, "cross_site_rejected"],
  ])("writes with %s: 403, nothing changed", async (_label, headers, code) => {
    await storeFor(kind);
    const note = (await send<AnnotationJson>("POST", "/api/annotations", { date: "2026-11-03", text: "kept" })).body;
    const refused = [
      await send<ErrorJson>("POST", "/api/annotations", { date: "2026-11-04", text: "forged" }, { headers }),
      await send<ErrorJson>("PATCH", `/api/annotations/${note.id}`, { updated_at: note.updated_at, text: "forged" }, { headers }),
      await send<ErrorJson>("DELETE", `/api/annotations/${note.id}`, undefined, { headers }),
    ];
    for (const res of refused) expect([res.status, res.body.error.code]).toEqual([403, code]);
    expect((await list()).body.data).toEqual([note]);
  });

  it(`the ${ANNOTATIONS_PER_WORKSPACE}th note is taken, the next is a 422 limit_reached`, async () => {
    const store = await storeFor(kind);
    const ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
    for (let i = 0; i < ANNOTATIONS_PER_WORKSPACE - 1; i += 37) {
      await Promise.all(
        Array.from({ length: Math.min(37, ANNOTATIONS_PER_WORKSPACE - 1 - i) }, (_, j) =>
          store.annotations.create(ws, { date: "2026-10-01", text: `n${i + j}` }),
        ),
      );
    }
    expect((await send("POST", "/api/annotations", { date: "2026-11-03", text: "the last one" })).status).toBe(201);
    const over = await send<ErrorJson>("POST", "/api/annotations", { date: "2026-11-03", text: "one too many" });
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe("limit_reached");
    expect(await store.annotations.count(ws)).toBe(ANNOTATIONS_PER_WORKSPACE);
    expect((await list()).body.data.map((n) => n.text)).toEqual(["the last one"]);
  }, 60_000);

  it("markup in a note stays text: answered exactly as written", async () => {
    await storeFor(kind);
    const text = `<img src=x onerror="alert(1)"><script>alert("x")</script> & &amp;`;
    const created = await send<AnnotationJson>("POST", "/api/annotations", { date: "2026-11-03", text, author: "<b>Ana</b>" });
    expect(created.body).toMatchObject({ text, author: "<b>Ana</b>" });
    expect(created.headers.get("content-type")).toBe("application/json");
    expect((await list()).body.data[0]).toMatchObject({ text, author: "<b>Ana</b>" });
  });

  it("other methods are a 405 saying which the path takes (its route file's methods)", async () => {
    await storeFor(kind);
    const put = await call<ErrorJson>(apiRoute, "/api/annotations", {
      cookie: await sessionCookie(DEMO_KEYS.pro),
      init: { method: "PUT", headers: { origin: ORIGIN }, body: "{}" },
    });
    expect([put.status, put.headers.get("allow"), put.body.error.code]).toEqual([405, "GET, HEAD, POST", "method_not_allowed"]);
    const post = await send<ErrorJson>("POST", "/api/annotations/ann_x", { date: "2026-11-03", text: "x" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, PATCH, DELETE"]);
    expect((await list()).body.data).toEqual([]);
  });

  it("GET: a bad range names its parameter", async () => {
    await storeFor(kind);
    for (const [query, param] of [
      ["from=2026-11-31&to=2026-12-01", "from"],
      ["from=2026-11-05&to=2026-11-01", "from"],
      ["from=2026-11-01&to=2026-11-05&tz=Mars/Olympus", "tz"],
    ]) {
      const res = await list(query);
      expect([res.status, res.body.error?.param], query).toEqual([400, param]);
    }
  });
});
