import { describe, expect, it } from "vitest";
import { OPEN_REDIRECT_TRICKS } from "./open-redirect-tricks";
import { safeNextPath } from "./safe-next";

describe("safeNextPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNextPath("/visitors?source=chatgpt&offset=20")).toBe("/visitors?source=chatgpt&offset=20");
    expect(safeNextPath("/visitors/vis_abc")).toBe("/visitors/vis_abc");
    expect(safeNextPath("/visitors?from=2026-11-01&to=2026-11-20#top")).toBe("/visitors?from=2026-11-01&to=2026-11-20#top");
  });

  it("resolves harmless dot segments to the same-site path they name", () => {
    expect(safeNextPath("/./visitors")).toBe("/visitors");
    expect(safeNextPath("/mentions/../visitors")).toBe("/visitors");
  });

  // The review's finding: "/.//evil.com/phish" passed the prefix checks and resolved to "//evil.com/phish".
  it.each(OPEN_REDIRECT_TRICKS.map((trick) => [JSON.stringify(trick).slice(0, 48), trick]))("open redirect trick %s falls back to /", (_label, trick) => {
    expect(safeNextPath(trick)).toBe("/");
  });

  it.each([["visitors"], ["/sign-in?next=/x"], ["/%73ign-in"], ["/api/session"], ["/%61pi/session"], [""], [null], [undefined]])(
    "falls back for %j (not a page of this app to return to)",
    (value) => {
      expect(safeNextPath(value)).toBe("/");
    },
  );

  it("whatever it returns is a same-origin path in every reading", () => {
    for (const trick of OPEN_REDIRECT_TRICKS) {
      const out = safeNextPath(trick, "/fallback");
      expect(out.startsWith("/") && !out.startsWith("//") && !out.startsWith("/\\")).toBe(true);
      expect(new URL(out, "https://app.example").origin).toBe("https://app.example");
    }
  });
});
