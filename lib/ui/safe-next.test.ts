import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next";

describe("safeNextPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNextPath("/visitors?source=chatgpt&offset=20")).toBe("/visitors?source=chatgpt&offset=20");
    expect(safeNextPath("/visitors/vis_abc")).toBe("/visitors/vis_abc");
  });
  it.each([
    ["//evil.example/x"],
    ["/\\evil.example"],
    ["https://evil.example/"],
    ["javascript:alert(1)"],
    ["visitors"],
    ["/sign-in?next=/x"],
    ["/api/session"],
    ["/\tevil"],
    [""],
    [null],
  ])("falls back for %s", (value) => {
    expect(safeNextPath(value)).toBe("/");
  });
});
