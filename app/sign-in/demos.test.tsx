// @vitest-environment jsdom
// The sign-in page's demo workspaces as the page gets them (loadDemoKeys over HTTP from an embedded
// sandbox, then demoOptions): each is described in words for someone trying the dashboard, never with
// the sandbox's developer notes ("403 forbidden on /intelligence/* and /visitors/{id}/timeline"),
// paths or status codes.
import { screen } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { loadDemoKeys, type DemoKey } from "@/lib/server/demo-keys";
import { upstreamForFile } from "@/testing/in-process";
import { SignInForm } from "./client";
import { demoOptions } from "./demos";

upstreamForFile({ visitors: 10 });
let listed: DemoKey[];

beforeAll(async () => {
  listed = (await loadDemoKeys()) ?? [];
  expect(listed.map((k) => k.id).sort()).toEqual(["empty", "free", "limited", "pro"]);
});

describe("the demo workspaces on the sign-in page", () => {
  it("are described in plain words: no paths, no status codes, none of the sandbox's own notes", () => {
    // The sandbox's notes are written for developers (the limited key's names its 403s and paths).
    expect(listed.find((k) => k.id === "limited")?.description).toMatch(/403.*\/intelligence/);
    const demos = demoOptions(listed);
    renderWithProviders(<SignInForm next="/" demos={demos} />);
    const shown = screen.getAllByTestId("demo-description").map((d) => d.textContent ?? "");
    expect(shown).toHaveLength(4);
    for (const text of shown) {
      expect(text).not.toMatch(/\/|\{|\*|\b\d{3}\b|forbidden|sandbox|request|endpoint|fault|oddRate/i);
      expect(listed.map((k) => k.description)).not.toContain(text);
    }
    // What the limited workspace lacks, said as what the person will not see.
    expect(screen.getByTestId("demo-limited").textContent).toContain("cannot see the AI Positioning Score, the competitor ranking or visitors' activity");
  });

  it("carry only an id, a plan and the page's words to the browser: never a key", () => {
    const demos = demoOptions(listed);
    for (const demo of demos) expect(Object.keys(demo).sort()).toEqual(["description", "id", "plan"]);
    expect(JSON.stringify(demos)).not.toMatch(/svc_sk_/);
  });
});
