// The in-process export store on an injected clock (the checks every ExportStatusStore passes,
// registry.contract.ts), and statusOf, which turns a record into what the browser reads (lost exports
// as failed, waits as seconds from now).
import { describe, expect, it } from "vitest";
import { exportStatusContract, iso, record, T0 } from "./export-status.contract";
import { MemoryExportStatusStore, STALE_MS, statusOf } from "./export-status";

exportStatusContract("MemoryExportStatusStore", (now) => new MemoryExportStatusStore(100, now));

describe("statusOf", () => {
  it("gives waits and the estimate as seconds from now, without the session", () => {
    const now = T0 + 10_000;
    const status = statusOf(record("a", T0, { state: "waiting", updated_at: iso(now), wait_until: iso(now + 37_200), estimated_end: iso(now + 95_000) }), now);
    expect(status).toMatchObject({ state: "waiting", wait_seconds: 38, seconds_left: 95 });
    expect(status).not.toHaveProperty("session");
    expect(status).not.toHaveProperty("wait_until");
  });

  it("shows an export that stopped writing as failed (lost), and a finished one without estimates", () => {
    const lost = statusOf(record("a", T0, { estimated_end: iso(T0 + 60_000) }), T0 + STALE_MS + 1);
    expect(lost).toMatchObject({ state: "failed", error: { code: "export_lost" } });
    const done = statusOf(record("b", T0, { state: "complete", estimated_end: iso(T0 + 60_000) }), T0 + 1000);
    expect(done.seconds_left).toBeUndefined();
  });
});
