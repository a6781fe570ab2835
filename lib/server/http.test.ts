// What the BFF's error responses tell the browser about waiting: Retry-After is whole seconds, at
// least 1, and never more than the client itself would wait, whatever an upstream said.
import { describe, expect, it } from "vitest";
import { DataApiError } from "@/lib/data-api/errors";
import { MAX_RETRY_AFTER_SECONDS } from "@/lib/data-api/rate-limit";
import { errorResponse, mapUpstreamError } from "./http";

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
    const { error } = mapUpstreamError(new DataApiError({ status: 429, code: "rate_limit_exceeded", message: "x", retryAfter: 999_999_999 }), "the visitor list");
    const res = errorResponse(error);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(MAX_RETRY_AFTER_SECONDS));
  });
});
