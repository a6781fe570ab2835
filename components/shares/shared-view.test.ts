// A shared page's links: one to the shared page itself (another country, a sort) stays on the link's
// address with its query; any other (another page, a list, Settings, another site) leads nowhere.
import { describe, expect, it } from "vitest";
import { sharedHref } from "./shared-view";

const shared = { path: "/locations", base: `/s/${"A".repeat(32)}` };

describe("sharedHref", () => {
  it("keeps a link to the shared page itself on the link's address, its query and fragment kept", () => {
    expect(sharedHref(shared, "/locations?country=DE&from=2026-11-01")).toBe(`${shared.base}?country=DE&from=2026-11-01`);
    expect(sharedHref(shared, "/locations#cities")).toBe(`${shared.base}#cities`);
    expect(sharedHref(shared, "/locations")).toBe(shared.base);
  });

  it("leads nowhere else", () => {
    for (const href of [
      "/visitors?source=chatgpt",
      "/mentions?query=x",
      "/settings",
      "/",
      "/locations/x",
      "https://elsewhere.example/locations",
      "//elsewhere.example/locations",
    ])
      expect(sharedHref(shared, href), href).toBeNull();
  });
});
