// Demo history over real HTTP on both databases: the first read of a demo key's score on the embedded
// sandbox records the sandbox's last 90 days first (one call), labelled as demo days in the history
// routes; never twice, never for the empty workspace, a workspace that already has history, a key
// that is not a demo key, or an upstream that is not the embedded sandbox.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "@/sandbox/keys";
import { setRuntimeFlags } from "@/lib/server/runtime-flags";
import { callApi, serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { STORE_KINDS, storesForFile } from "@/testing/stores";
import { DEMO_DAYS } from "./demo-history";
import { forgetRecorded, recordingsSettled } from "./on-read";

const sandbox = upstreamForFile({ visitors: 300 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

type History = { since: string | null; demo: { from: string; to: string; days: number } | null; data: Array<{ at: string }> };

let cookies: Record<"pro" | "empty", string>;
beforeAll(async () => {
  cookies = { pro: await sessionCookie(DEMO_KEYS.pro), empty: await sessionCookie(DEMO_KEYS.empty) };
});
beforeEach(() => {
  setRuntimeFlags({ embeddedSandboxOrigin: sandbox().url });
  forgetRecorded();
  (globalThis as { __waDemoHistory?: Map<unknown, unknown> }).__waDemoHistory?.clear();
});

const historyPaths = () =>
  sandbox()
    .stats()
    .log.filter((e) => e.path === "/sandbox/history").length;

describe.each(STORE_KINDS)("demo history (%s)", (kind) => {
  it("starts a demo workspace with the sandbox's last 90 days, once, labelled as demo days", async () => {
    const store = await stores.open(kind);
    overrideContext({ store: async () => store });
    const before = historyPaths();
    const today = await callApi<{ updated_at: string }>("/api/intelligence/score", { cookie: cookies.pro });
    await recordingsSettled();
    await callApi("/api/intelligence/ranking", { cookie: cookies.pro });
    await recordingsSettled();
    expect(historyPaths() - before).toBe(1);

    const res = await callApi<History>("/api/history/score?from=2026-08-01&to=2026-11-30", { cookie: cookies.pro });
    expect(res.body.data).toHaveLength(DEMO_DAYS + 1);
    expect(res.body.data.at(-1)!.at).toBe(today.body.updated_at);
    const firstDemo = new Date(Date.parse(today.body.updated_at) - DEMO_DAYS * 86_400_000).toISOString();
    expect(res.body.since).toBe(firstDemo);
    expect(res.body.demo).toEqual({ from: firstDemo, to: res.body.data.at(-2)!.at, days: DEMO_DAYS });
    const ranking = await callApi<History>("/api/history/ranking?from=2026-08-01&to=2026-11-30", { cookie: cookies.pro });
    expect(ranking.body.data).toHaveLength(DEMO_DAYS + 1);
    // Asked again (another process, or after a restart): the history is there, nothing is fetched.
    (globalThis as { __waDemoHistory?: Map<unknown, unknown> }).__waDemoHistory?.clear();
    await callApi("/api/history/score", { cookie: cookies.pro });
    expect(historyPaths() - before).toBe(1);
  });

  it("leaves the empty workspace, other upstreams and workspaces with history of their own alone", async () => {
    const store = await stores.open(kind);
    overrideContext({ store: async () => store });
    const before = historyPaths();
    // The empty workspace's own reading of today (a zero score) is all it has: no demo past.
    const empty = await callApi<History>("/api/history/score", { cookie: cookies.empty });
    expect(empty.body).toMatchObject({ demo: null });
    expect(empty.body.data).toHaveLength(1);
    expect(historyPaths() - before).toBe(1);

    setRuntimeFlags({ embeddedSandboxOrigin: null });
    const asked = historyPaths();
    await callApi("/api/intelligence/score", { cookie: cookies.pro });
    await recordingsSettled();
    setRuntimeFlags({ embeddedSandboxOrigin: sandbox().url });
    const own = await callApi<History>("/api/history/score", { cookie: cookies.pro });
    expect(own.body.demo).toBeNull();
    expect(own.body.data).toHaveLength(1);
    expect(historyPaths()).toBe(asked);
  });
});
