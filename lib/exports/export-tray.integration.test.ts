// What the exports tray relies on, through the route handlers against a sandbox over real HTTP: an
// export registers under the id the browser gave before its first byte, the status route lists the
// session's exports (and only its own), progress and bytes match the file, a rate-limit wait is
// reported with its seconds and an estimate that covers it, cancel stops the download and the upstream
// paging (also after a full garbage collection: nothing that carries the cancel is held weakly), at
// most MAX_RUNNING_EXPORTS run per key with a 429 beyond, an id is never reused, and refusals are
// recorded under the id so the tray can say why a download failed. A HEAD starts nothing, and a
// download nobody reads ends after the idle limit (saying why, freeing its place) while one that is
// read, however slowly, through long rate-limit waits goes on.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "@/sandbox/server";
import { DEMO_KEYS } from "@/sandbox/keys";
import { serverContext } from "@/lib/server/context";
import { call, onServerFakeTime, sessionCookie, withProUpstream, ORIGIN, type ErrorJson } from "@/testing/in-process";
import { MAX_RUNNING_EXPORTS, newExportId, type ExportStatus } from "@/lib/shared-state/export-status";
import { EXPORT_IDLE_MS } from "./stream";
import { routeFileAt } from "@/testing/api-routes";

const visitorsRoute = await routeFileAt("export/visitors");
const { POST: cancelExport } = await routeFileAt("export/cancel");
const { GET: exportMentions } = await routeFileAt("export/mentions");
const { GET: exportStatus } = await routeFileAt("export/status");
const { GET: exportVisitors } = await routeFileAt("export/visitors");

let sandbox: Sandbox;
let cookie: string;
withProUpstream((s, c) => ([sandbox, cookie] = [s, c]), { visitors: 2000 });

function startDownload(query: string, init: { cookie?: string; signal?: AbortSignal; resource?: "visitors" | "mentions" } = {}): Promise<Response> {
  const req = new Request(`${ORIGIN}/api/export/${init.resource ?? "visitors"}?${query}`, {
    headers: { cookie: init.cookie ?? cookie, "sec-fetch-site": "same-origin" },
    signal: init.signal,
  });
  return (init.resource === "mentions" ? exportMentions : exportVisitors)(req, undefined);
}

const status = (id: string, as = cookie) => call<ExportStatus & ErrorJson>(exportStatus, `/api/export/status?id=${id}`, { cookie: as });
const list = (as = cookie) => call<{ data: ExportStatus[] }>(exportStatus, "/api/export/status", { cookie: as });
const cancel = (id: string, headers: Record<string, string> = { origin: ORIGIN }) =>
  call<ExportStatus & ErrorJson>(cancelExport, `/api/export/cancel?id=${id}`, { cookie, init: { method: "POST", headers } });

/** Waits (real time) until `check` holds, up to `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Upstream /visitors export pages (limit=100) the sandbox has answered. */
const pagesSeen = () => sandbox.stats().log.filter((e) => e.path === "/v1/visitors" && /(^|&)limit=100(&|$)/.test(e.query)).length;

describe("the exports tray's view of an export", () => {
  it("registers under the browser's id, reports bytes and rows as in the file, and lists the session's exports newest first", async () => {
    const first = newExportId();
    const res = await startDownload(`source=claude&format=csv&id=${first}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-export-id")).toBe(first);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const rows = new TextDecoder().decode(bytes).split("\r\n").filter(Boolean).length - 1;
    await until(async () => (await status(first)).body.state === "complete");
    const done = (await status(first)).body;
    expect(done).toMatchObject({ id: first, resource: "visitors", format: "csv", state: "complete", rows_written: rows, total: rows, bytes: bytes.length });
    expect(done.filename).toMatch(/^visitors_source-claude_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(done).not.toHaveProperty("session");
    expect(done.seconds_left).toBeUndefined();

    const second = newExportId();
    await (await startDownload(`platform=gemini&format=json&id=${second}`, { resource: "mentions" })).text();
    await until(async () => (await status(second)).body.state === "complete");
    const mine = (await list()).body.data.map((s) => s.id);
    expect(mine.indexOf(second)).toBeLessThan(mine.indexOf(first));
    expect(mine.indexOf(first)).toBeGreaterThanOrEqual(0);

    // Another session of the same key has its own list (it can still read an export by id).
    const other = await sessionCookie(DEMO_KEYS.pro);
    expect((await list(other)).body.data.map((s) => s.id)).not.toContain(first);
    expect((await status(first, other)).status).toBe(200);
    // Another key sees nothing of it.
    expect((await status(first, await sessionCookie(DEMO_KEYS.free))).status).toBe(404);
  });

  it("never reuses an id (a browser retrying a failed download must not start it again)", async () => {
    const id = newExportId();
    await (await startDownload(`source=gemini&converted=true&format=csv&id=${id}`)).text();
    const again = await startDownload(`source=gemini&converted=true&format=csv&id=${id}`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorJson).error.code).toBe("export_exists");
    for (const bad of ["exp_short", "../x", `${id}&id=${newExportId()}`]) {
      const res = await startDownload(`format=csv&id=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as ErrorJson).error.param).toBe("id");
    }
  });

  it("records a refused export under its id, so the tray can say why the download failed", async () => {
    const id = newExportId();
    const res = await startDownload(`source=myspace&format=csv&id=${id}`);
    expect(res.status).toBe(400);
    const recorded = (await status(id)).body;
    expect(recorded.state).toBe("failed");
    expect(recorded.error).toMatchObject({ code: "invalid_parameter" });
    expect(recorded.error?.message).toMatch(/chatgpt/);
  });

  it("records a first-page failure with the upstream's request id", async () => {
    sandbox.setFaults({ errorCount: 100, paths: ["/visitors"] });
    const id = newExportId();
    const res = await onServerFakeTime(() => startDownload(`source=perplexity&format=csv&id=${id}`));
    expect(res.status).toBe(502);
    const body = (await res.json()) as ErrorJson;
    await until(async () => (await status(id)).body.state === "failed");
    const recorded = (await status(id)).body;
    expect(recorded.error).toMatchObject({ code: "upstream_error", request_id: body.error.request_id });
    expect(recorded.error?.request_id).toMatch(/^req_/);
  });
});

describe("cancel", () => {
  it("refuses a cross-site cancel, a bad id and an unknown one; an ended export is left as it is", async () => {
    const id = newExportId();
    await (await startDownload(`source=chatgpt&converted=true&format=csv&id=${id}`)).text();
    expect((await cancel(id, { origin: "https://evil.example" })).status).toBe(403);
    expect((await cancel("exp_nope")).body.error.param).toBe("id");
    expect((await cancel(newExportId())).status).toBe(404);
    await until(async () => (await status(id)).body.state === "complete");
    const ended = await cancel(id);
    expect(ended.status).toBe(200);
    expect(ended.body.state).toBe("complete");
  });

  it("stops the download and the upstream paging within a page, even after a full garbage collection", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    sandbox.reset();
    sandbox.setFaults({ latencyMs: 40, paths: ["/visitors"] });
    const id = newExportId();
    // Only the response body is kept, as Next keeps it while it streams to the browser.
    const reader = (await startDownload(`format=csv&id=${id}`)).body!.getReader();
    await reader.read();
    await reader.read();
    // Whatever carries the cancel must be held strongly: a weakly held signal would be gone now.
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    const asked = await cancel(id);
    expect(asked.status).toBe(202);
    const drain = async () => {
      for (;;) if ((await reader.read()).done) return "ended cleanly";
    };
    // The browser sees a failed download, never a clean (truncated) end.
    await expect(drain()).rejects.toThrow(/cancelled/);
    const atCancel = pagesSeen();
    await new Promise((r) => setTimeout(r, 500));
    // Pages already on the wire may land; nothing new is asked for.
    expect(pagesSeen() - atCancel).toBeLessThanOrEqual(8);
    const settled = pagesSeen();
    await new Promise((r) => setTimeout(r, 500));
    expect(pagesSeen()).toBe(settled);
    expect(settled).toBeLessThan(20);
    await until(async () => (await status(id)).body.state === "cancelled");
    expect((await status(id)).body.error).toBeUndefined();
  });

  it("is picked up from the store when the cancel reached another instance", async () => {
    sandbox.setFaults({ latencyMs: 300, paths: ["/visitors"] });
    const id = newExportId();
    const reader = (await startDownload(`format=json&id=${id}`)).body!.getReader();
    await reader.read();
    // As another instance would: only the store hears of it, not this process's live handle.
    const { keyId } = await import("@/lib/server/key-id");
    await serverContext().stores.exportStatus.requestCancel(keyId(DEMO_KEYS.pro), id, 60_000);
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow(/cancelled/);
    await until(async () => (await status(id)).body.state === "cancelled");
  });

  it("a browser that drops the download ends the export as stopped, with a reason", async () => {
    sandbox.setFaults({ latencyMs: 40, paths: ["/visitors"] });
    const id = newExportId();
    const client = new AbortController();
    const reader = (await startDownload(`format=csv&id=${id}`, { signal: client.signal })).body!.getReader();
    await reader.read();
    client.abort();
    await reader.cancel().catch(() => undefined);
    await until(async () => (await status(id)).body.state === "cancelled");
    expect((await status(id)).body.error?.code).toBe("download_stopped");
  });
});

describe("bounds", () => {
  it(`runs at most ${MAX_RUNNING_EXPORTS} exports per key; one more is a 429 in the error shape, recorded for the tray`, async () => {
    sandbox.setFaults({ latencyMs: 40, paths: ["/visitors"] });
    const ids = Array.from({ length: MAX_RUNNING_EXPORTS }, () => newExportId());
    const readers = [];
    for (const id of ids) {
      const res = await startDownload(`format=csv&id=${id}`);
      expect(res.status).toBe(200);
      readers.push(res.body!.getReader());
    }
    const extra = newExportId();
    const refused = await startDownload(`format=csv&id=${extra}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(((await refused.json()) as ErrorJson).error.code).toBe("too_many_exports");
    expect((await status(extra)).body).toMatchObject({ state: "failed", error: { code: "too_many_exports" } });
    // Another key is not held back by this one's exports.
    const freeCookie = await sessionCookie(DEMO_KEYS.free);
    const other = await startDownload(`source=claude&converted=true&format=csv&id=${newExportId()}`, { cookie: freeCookie });
    expect(other.status).toBe(200);
    await other.text();

    // Cancelling one makes room.
    expect((await cancel(ids[0]!)).status).toBe(202);
    await until(async () => (await status(ids[0]!)).body.state === "cancelled");
    const next = await startDownload(`format=csv&id=${newExportId()}`);
    expect(next.status).toBe(200);
    for (const id of ids.slice(1)) await cancel(id);
    await next.body!.cancel();
    for (const r of readers) await r.cancel().catch(() => undefined);
  });
});

describe("waiting for the rate limit", () => {
  it("says it is waiting, with the seconds left, and an estimate that covers the wait; then completes", async () => {
    // 20 pages on a budget of 10 a minute: the export must wait for the next window.
    process.env.DATA_API_RATE_BUDGET = "5/s,10/min";
    try {
      const seen: ExportStatus[] = [];
      await onServerFakeTime(
        async () => {
          const id = newExportId();
          const res = await startDownload(`format=csv&id=${id}`);
          expect(res.status).toBe(200);
          let text = "";
          const reading = res.text().then((t) => (text = t));
          for (let i = 0; i < 400 && !text; i++) {
            await new Promise((r) => setTimeout(r, 1000));
            seen.push((await status(id)).body);
          }
          await reading;
          expect(text.split("\r\n").filter(Boolean).length).toBe(2001);
        },
        { sandbox },
      );
      const waiting = seen.filter((s) => s.state === "waiting");
      expect(waiting.length, "the export should have reported a wait").toBeGreaterThan(5);
      for (const s of waiting) {
        expect(s.wait_seconds).toBeGreaterThan(0);
        expect(s.wait_seconds).toBeLessThanOrEqual(61);
        expect(s.seconds_left!).toBeGreaterThanOrEqual(s.wait_seconds!);
      }
      // The wait and the estimate count down from one answer to the next (they do not freeze).
      const waits = waiting.map((s) => s.wait_seconds!);
      expect(waits[0]! - waits[waits.length - 1]!).toBeGreaterThanOrEqual(waiting.length - 3);
      expect(waiting[0]!.seconds_left! - waiting.at(-1)!.seconds_left!).toBeGreaterThanOrEqual(waiting.length - 3);
      expect(seen.at(-1)?.state === "complete" || seen.some((s) => s.state === "running")).toBe(true);
    } finally {
      delete process.env.DATA_API_RATE_BUDGET;
    }
  });
});

describe("downloads nobody reads", () => {
  /** As Next answers HEAD: with the GET handler, the request's method HEAD. */
  const head = (query: string) => visitorsRoute.GET(new Request(`${ORIGIN}/api/export/visitors?${query}`, { method: "HEAD", headers: { cookie } }), undefined);
  /** As Next calls the route for a GET (curl, a script: no Sec-Fetch headers). */
  const get = (query: string) => visitorsRoute.GET(new Request(`${ORIGIN}/api/export/visitors?${query}`, { headers: { cookie } }), undefined);

  it("HEAD is a 405 that starts nothing: after three HEADs an export of the key still starts", async () => {
    const before = sandbox.stats().requests;
    const ids = [newExportId(), newExportId(), newExportId()];
    for (const id of ids) {
      const res = await head(`format=csv&id=${id}`);
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
      expect(((await res.json()) as ErrorJson).error.code).toBe("method_not_allowed");
      expect((await status(id)).status).toBe(404);
    }
    expect(sandbox.stats().requests).toBe(before);
    const res = await get(`source=claude&converted=true&format=csv&id=${newExportId()}`);
    expect(res.status).toBe(200);
    await res.text();
  });

  it("ends an export whose body is never read after the idle limit, says why in its record, stops its heartbeat and frees its place", async () => {
    await onServerFakeTime(async () => {
      const ids = Array.from({ length: MAX_RUNNING_EXPORTS }, () => newExportId());
      const bodies: Response[] = [];
      for (const id of ids) {
        const res = await get(`format=csv&id=${id}`);
        expect(res.status).toBe(200);
        // Held, never read: what Next does with a GET it runs for a HEAD.
        bodies.push(res);
      }
      const refused = await get(`format=csv&id=${newExportId()}`);
      expect(refused.status).toBe(429);
      await refused.text();

      // Still running (heartbeating) within the limit...
      await new Promise((r) => setTimeout(r, EXPORT_IDLE_MS - 2000));
      for (const id of ids) expect((await status(id)).body.state).toBe("running");
      // ...and ended after it, with the reason the tray shows.
      await new Promise((r) => setTimeout(r, 3000));
      for (const id of ids) {
        const ended = (await status(id)).body;
        expect(ended.state).toBe("failed");
        expect(ended.error?.code).toBe("download_idle");
        expect(ended.error?.message).toMatch(/Nothing read the download for 30 s/);
      }
      // Nothing writes the records any more.
      const written = await Promise.all(ids.map(async (id) => (await status(id)).body.updated_at));
      await new Promise((r) => setTimeout(r, 60_000));
      expect(await Promise.all(ids.map(async (id) => (await status(id)).body.updated_at))).toEqual(written);
      // Whoever held the bodies sees failed downloads.
      for (const body of bodies) await expect(body.text()).rejects.toThrow(/Nothing read the download/);

      const next = await get(`source=gemini&converted=true&format=csv&id=${newExportId()}`);
      expect(next.status).toBe(200);
      await next.text();
    });
  });

  it("a slow but reading client is not ended during rate-limit waits longer than the idle limit", async () => {
    // 20 pages on 10 a minute: once the client has read the first ten, the export waits over half a
    // minute for the next window, the client waiting on it.
    process.env.DATA_API_RATE_BUDGET = "5/s,10/min";
    try {
      const seen: ExportStatus[] = [];
      await onServerFakeTime(async () => {
        const id = newExportId();
        const res = await get(`format=csv&id=${id}`);
        expect(res.status).toBe(200);
        const reading = (async () => {
          const reader = res.body!.getReader();
          const decoder = new TextDecoder();
          let text = "";
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return text;
            text += decoder.decode(value);
            // A slow client: two seconds between two reads.
            await new Promise((r) => setTimeout(r, 2000));
          }
        })();
        let text: string | undefined;
        let failure: unknown;
        reading.then(
          (t) => (text = t),
          (e: unknown) => (failure = e),
        );
        // The tray's view meanwhile (polled apart from the reader, which it must not slow down).
        while (text === undefined && failure === undefined) {
          await new Promise((r) => setTimeout(r, 1000));
          seen.push((await status(id)).body);
        }
        expect(failure).toBeUndefined();
        expect(text!.split("\r\n").filter(Boolean)).toHaveLength(2001);
        seen.push((await status(id)).body);
      });
      expect(seen.at(-1)).toMatchObject({ state: "complete", rows_written: 2000 });
      // It did wait longer than the idle limit for the rate limit.
      expect(Math.max(...seen.map((s) => s.wait_seconds ?? 0))).toBeGreaterThan(EXPORT_IDLE_MS / 1000);
    } finally {
      delete process.env.DATA_API_RATE_BUDGET;
    }
  });
});
