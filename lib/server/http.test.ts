// What the BFF's error responses tell the browser: about waiting (Retry-After is whole seconds, at
// least 1, and never more than the client itself would wait, whatever an upstream said), and the
// status of every error the route layer maps, also when another copy of its module made it (the
// production build holds one copy per bundle, and the store shared on globalThis throws its own).
import { afterEach, describe, expect, it, vi } from "vitest";
import { DataApiError } from "@/lib/data-api/errors";
import { MAX_RETRY_AFTER_SECONDS } from "@/lib/data-api/rate-limit";
import { StoreConflictError } from "@/lib/store/errors";
import { errorForBrowser, errorResponse, mapUpstreamError } from "./http";

const rateLimited = (retryAfter: number) => new DataApiError({ status: 503, code: "rate_limited", message: "rate limited", retryAfter });

describe("errorResponse: Retry-After", () => {
  it.each([
    [999_999_999, "65"],
    [Number.POSITIVE_INFINITY, "65"],
    [66, "65"],
    [65, "65"],
    [2.2, "3"],
    [0, "1"],
    [Number.NaN, "1"],
  ])("retryAfter %s is sent as %s", (retryAfter, header) => {
    const res = errorResponse(rateLimited(retryAfter));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(header);
  });

  it("is left out when the wait is not known", () => {
    expect(errorResponse(new DataApiError({ status: 502, code: "upstream_error", message: "x" })).headers.has("retry-after")).toBe(false);
  });

  it("an upstream 429 asking for years becomes a 503 asking for a minute at most", () => {
    const { error } = mapUpstreamError(
      new DataApiError({ status: 429, code: "rate_limit_exceeded", message: "x", retryAfter: 999_999_999 }),
      "the visitor list",
    );
    const res = errorResponse(error);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(MAX_RETRY_AFTER_SECONDS));
  });
});

/** The modules whose errors the route layer maps, loaded once more: other classes than this file's. */
async function secondCopies() {
  vi.resetModules();
  const [store, env, dataApi, http, sealed] = await Promise.all([
    import("@/lib/store/errors"),
    import("./env"),
    import("@/lib/data-api/errors"),
    import("./http"),
    import("@/lib/store/sealed"),
  ]);
  return { store, env, dataApi, http, sealed };
}
type Copies = Awaited<ReturnType<typeof secondCopies>>;
type Expected = { status: number; code: string; param?: string; endSession?: boolean };

describe("errorForBrowser: an error made by another copy of its module", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is not an instance of this copy's class (what made every store refusal a 500 in production)", async () => {
    const copies = await secondCopies();
    expect(copies.store.StoreConflictError).not.toBe(StoreConflictError);
    expect(new copies.store.StoreConflictError("taken")).not.toBeInstanceOf(StoreConflictError);
  });

  it.each<[string, (c: Copies) => Error, Expected]>([
    [
      "a store conflict (a view's name taken)",
      (c) => new c.store.StoreConflictError('A view named "A" already exists.', "name_taken", "name"),
      { status: 409, code: "name_taken", param: "name" },
    ],
    [
      "a store conflict (a key of another workspace)",
      (c) => new c.store.StoreConflictError("this key already opens another workspace", "conflict", "apiKey"),
      { status: 409, code: "conflict", param: "apiKey" },
    ],
    ["a workspace's bound reached", (c) => new c.store.StoreLimitError("This workspace keeps at most 1000 notes."), { status: 422, code: "limit_reached" }],
    [
      "bad input to the store",
      (c) => new c.store.StoreInputError("end_date must not be before the note's date", "end_date"),
      { status: 400, code: "invalid_parameter", param: "end_date" },
    ],
    ["the store unavailable", (c) => new c.store.StoreUnavailableError("locked"), { status: 503, code: "store_unavailable" }],
    ["a configuration error", (c) => new c.env.ConfigError("SESSION_SECRET is not set."), { status: 503, code: "not_configured" }],
    [
      "a kept value no configured secret opens (an instance with another SESSION_SECRET)",
      (c) => new c.sealed.SealedUnreadableError({ table: "workspaces", column: "watch_key_sealed" } as never, "ws_1"),
      { status: 503, code: "store_unavailable" },
    ],
    [
      "an error this app answers itself (409)",
      (c) => c.http.finalError({ status: 409, code: "destination_stopped", message: "stopped" }),
      { status: 409, code: "destination_stopped" },
    ],
    ["a missing session (401, the cookie cleared)", (c) => c.http.unauthorized(), { status: 401, code: "unauthorized", endSession: true }],
    [
      "an upstream 429 (mapped, not passed through)",
      (c) => new c.dataApi.DataApiError({ status: 429, code: "rate_limit_exceeded", message: "slow down", retryAfter: 3 }),
      { status: 503, code: "rate_limited" },
    ],
  ])("%s keeps its answer", async (_what, make, expected) => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const mapped = errorForBrowser(make(await secondCopies()), "the saved views");
    expect({ status: mapped.error.status, code: mapped.error.code, param: mapped.error.param, endSession: mapped.endSession }).toEqual({
      param: undefined,
      endSession: false,
      ...expected,
    });
    // Never the "unexpected error" of a bug.
    expect(error.mock.calls.flat().join(" ")).not.toContain("unexpected error");
  });
});
